<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use WarmHttp\Bench\BenchConfig;

/**
 * How much work the relay rows do. They scale with --requests, the knob --quick turns down
 * (50 by default, 10 with --quick), so the relay rows shrink with the rest of the run.
 *
 * @internal bench tooling
 */
final readonly class RelaySizes
{
    public function __construct(
        public int $dispatches,
        public int $execs,
        public int $coldPosts,
        public int $deliveries,
        public int $throughputRuns,
        public int $fpmRequests,
        public int $wrkSeconds,
    ) {}

    public static function from(BenchConfig $config): self
    {
        $n = $config->requests;

        return new self(
            dispatches: 40 * $n,                       // 2000; 400 with --quick
            execs: min(50, max(10, $n)),               // each leaves a curl process running for a while
            coldPosts: min(20, max(5, $n)),            // 3 RTT each
            deliveries: 200 * $n,                      // 10000; 2000 with --quick
            throughputRuns: min(3, $config->repeat),
            fpmRequests: $n,
            wrkSeconds: max(2, min(5, intdiv($n, 10))), // 5 s; 2 s with --quick: with a 1 s upstream, less counts nothing
        );
    }
}
