<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

/**
 * One throughput run: $count requests handed to the relay (or to seeds/004's Node forwarder),
 * and what arrived at the origin.
 *
 * @internal benchmark tooling
 */
final readonly class ThroughputResult
{
    public function __construct(
        public int $count,
        public int $accepted,
        public int $refused,
        public float $acceptSeconds,
        public float $seconds,
        public int $delivered,
        public int $duplicates,
        /** @var list<float>|null CPU seconds per relay process, the front first; null off Linux */
        public ?array $relayCpuSeconds,
        /** The one CPU both relay processes were confined to; null when not confined */
        public ?int $pinnedCpu = null,
        /** Connections the upstream's latency proxy accepted during the run */
        public ?int $upstreamConnections = null,
    ) {}

    /**
     * @param array<int, float>|null $before pid => CPU seconds, from BenchRelay::cpuSeconds()
     * @param array<int, float>|null $after
     *
     * @return list<float>|null per process, by pid (the front is the oldest)
     */
    public static function cpuUsed(?array $before, ?array $after): ?array
    {
        if ($before === null || $after === null) {
            return null;
        }
        ksort($after);
        $used = [];
        foreach ($after as $pid => $seconds) {
            $used[] = max(0.0, $seconds - ($before[$pid] ?? 0.0));
        }

        return $used;
    }

    /** Accepted requests that never reached the origin within the wait. */
    public function lost(): int
    {
        return max(0, $this->accepted - $this->delivered);
    }

    public function perSecond(): float
    {
        return $this->delivered / max(0.001, $this->seconds);
    }

    /** Cores the relay (or Node) kept busy meanwhile (CPU seconds over wall seconds); null off Linux. */
    public function relayCores(): ?float
    {
        return $this->relayCpuSeconds === null ? null : array_sum($this->relayCpuSeconds) / max(0.001, $this->seconds);
    }

    /** Cores per relay process, e.g. "0.31 + 0.73" (front + delivery). */
    public function relayCoresByProcess(): string
    {
        return implode(' + ', array_map(fn(float $s): string => \sprintf('%.2f', $s / max(0.001, $this->seconds)), $this->relayCpuSeconds ?? []));
    }
}
