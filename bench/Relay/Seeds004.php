<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use WarmHttp\Bench\BenchContext;
use WarmHttp\Bench\Row;

/**
 * seeds/004: a PHP-FPM endpoint that POSTs to a 1 s upstream, under wrk, with 10 workers and
 * 10 connections (the article's 10 JMeter threads): requests per minute when it waits for the
 * POST, when it hands it to the relay with dispatch(), and (Seeds004::node()) when it hands it
 * to the article's own Node forwarder with fsockopen.
 *
 * @internal bench tooling
 */
final class Seeds004 implements RelayMeasurement
{
    private const WORKERS = 10;
    private const CONNECTIONS = 10;
    private const UPSTREAM_MS = 1000;

    public function __construct(private readonly bool $node = false) {}

    /** The article's own answer: fsockopen per request to its Node.js forwarder. */
    public static function node(): self
    {
        return new self(true);
    }

    public function specs(BenchContext $context): array
    {
        return $this->node
            ? [new RelaySpec('node-fpm-forwarder', 'seeds/004 FPM endpoint, POST via fsockopen to the Node forwarder', 'req/min')]
            : [
                new RelaySpec('fpm-blocking', 'seeds/004 FPM endpoint, POST to a 1 s upstream, blocking', 'req/min'),
                new RelaySpec('warmhttp-fpm-dispatch', 'seeds/004 FPM endpoint, POST with dispatch()', 'req/min'),
            ];
    }

    public function missing(): ?string
    {
        return Requirements::wrk() ?? Requirements::fpm() ?? ($this->node ? NodeForwarder::missing() : Requirements::relay());
    }

    public function measure(BenchContext $context, RelaySizes $sizes): array
    {
        if ($this->node) {
            [$run, $failed] = (new NodeBench())->seeds004(self::WORKERS, self::CONNECTIONS, $sizes->wrkSeconds, self::UPSTREAM_MS);
            $note = $failed > 0 ? \sprintf(' · %d dropped at fsockopen', $failed) : '';

            return [$this->row($this->specs($context)[0], $run, $sizes, ['handOffsFailed' => $failed, 'killMinus9' => KillNine::NODE], $note)];
        }
        $runs = (new FpmBench())->seeds004(self::WORKERS, self::CONNECTIONS, $sizes->wrkSeconds, self::UPSTREAM_MS);
        [$blocking, $dispatch] = $this->specs($context);
        $fellBack = $runs['dispatch']->fallbacks > 0 ? \sprintf(' · %d fell back', $runs['dispatch']->fallbacks) : '';

        return [$this->row($blocking, $runs['blocking'], $sizes), $this->row($dispatch, $runs['dispatch'], $sizes, ['killMinus9' => KillNine::RELAY], $fellBack)];
    }

    /** @param array<string, float|int|string> $more */
    private function row(RelaySpec $spec, WrkResult $run, RelaySizes $sizes, array $more = [], string $moreNote = ''): Row
    {
        $extra = [
            'wrkRequests' => $run->requests,
            'wrkSeconds' => $sizes->wrkSeconds,
            'latencyAvg' => $run->latency,
            'errors' => $run->errors,
            'fallbacks' => $run->fallbacks,
            'workers' => self::WORKERS,
            'connections' => self::CONNECTIONS,
            'upstreamMs' => self::UPSTREAM_MS,
            // The request count shows the granularity: with a 1 s upstream a short run counts few.
            'note' => \sprintf('%d requests in %d s · latency %s · %d errors', $run->requests, $sizes->wrkSeconds, $run->latency, $run->errors) . $moreNote,
        ];

        return $spec->measured($run->requestsPerMinute, $run->requestsPerMinute, $run->requestsPerMinute, $run->requests, $more + $extra);
    }
}
