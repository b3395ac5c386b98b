<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Bench;

/**
 * @internal benchmark tooling
 */
final class Percentiles
{
    /**
     * @param list<float> $samples microseconds
     *
     * @return array{p50: float, p99: float, n: int}
     */
    public static function of(array $samples): array
    {
        sort($samples);
        $n = \count($samples);
        $at = static fn(float $q): float => $n === 0 ? 0.0 : round($samples[min($n - 1, (int) floor($q * $n))], 1);

        return ['p50' => $at(0.50), 'p99' => $at(0.99), 'n' => $n];
    }
}
