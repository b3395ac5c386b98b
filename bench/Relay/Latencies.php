<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

/**
 * Percentiles of timed samples, in the unit they were taken in (µs for hand-offs, ms for
 * FPM calls). Nearest-rank: p99 of 50 samples is the largest, said so by $n.
 *
 * @internal benchmark tooling
 */
final readonly class Latencies
{
    private function __construct(
        public float $p50,
        public float $p99,
        public float $min,
        public float $max,
        public int $n,
    ) {}

    /** @param list<float> $samples */
    public static function of(array $samples): self
    {
        if ($samples === []) {
            throw new \InvalidArgumentException('No samples: a row needs at least one timed call.');
        }
        sort($samples);
        $n = \count($samples);
        $at = static fn(float $q): float => $samples[min($n - 1, (int) floor($q * $n))];

        return new self($at(0.50), $at(0.99), $samples[0], $samples[$n - 1], $n);
    }
}
