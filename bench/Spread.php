<?php

declare(strict_types=1);

namespace WarmHttp\Bench;

/**
 * Min, median and max of repeated samples.
 *
 * @internal bench tooling
 */
final readonly class Spread
{
    private function __construct(public float $min, public float $median, public float $max) {}

    /** @param non-empty-list<float|int> $samples */
    public static function of(array $samples): self
    {
        sort($samples);
        $count = \count($samples);
        $middle = intdiv($count, 2);
        $median = $count % 2 === 1 ? $samples[$middle] : ($samples[$middle - 1] + $samples[$middle]) / 2;

        return new self((float) $samples[0], (float) $median, (float) $samples[$count - 1]);
    }

    /** @param non-empty-list<int> $samples the median, as an int (counts that should not vary) */
    public static function medianInt(array $samples): int
    {
        return (int) round(self::of($samples)->median);
    }
}
