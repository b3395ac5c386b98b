<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Output;

use WarmHttp\Bench\Row;

/**
 * A panel's linear scale from zero: round tick steps (1, 2, 2.5, 5 × 10ⁿ), about five of them,
 * up to the largest median, max or limit of its rows.
 *
 * @internal bench tooling
 */
final readonly class ChartScale
{
    private function __construct(private float $step, private float $top) {}

    /** @param list<Row> $rows */
    public static function for(array $rows): self
    {
        $largest = 0.0;
        foreach ($rows as $row) {
            if ($row->ok()) {
                $largest = max($largest, (float) $row->median, self::whisker($row)[1], (float) $row->limit);
            }
        }

        return self::upTo($largest > 0 ? $largest : 1.0);
    }

    /**
     * Where a row's whisker runs: min–max of its repeats, or for rows of per-call latencies
     * (those with a p99) from the fastest call to p99: their max is one call in thousands.
     *
     * @return array{float, float}
     */
    public static function whisker(Row $row): array
    {
        $median = (float) $row->median;
        $p99 = $row->extra['p99'] ?? null;

        return [(float) ($row->min ?? $median), is_numeric($p99) ? max($median, (float) $p99) : (float) ($row->max ?? $median)];
    }

    public static function upTo(float $largest): self
    {
        $raw = $largest / 5;
        $magnitude = 10 ** floor(log10($raw));
        $step = $magnitude * 10;
        foreach ([1, 2, 2.5, 5, 10] as $factor) {
            if ($factor * $magnitude >= $raw) {
                $step = $factor * $magnitude;

                break;
            }
        }

        return new self($step, ceil($largest / $step - 1e-9) * $step);
    }

    /** @return list<float> from 0 to the top, every step */
    public function ticks(): array
    {
        $ticks = [];
        for ($i = 0; $i * $this->step <= $this->top + $this->step / 1000; ++$i) {
            $ticks[] = $i * $this->step;
        }

        return $ticks;
    }

    /** Where $value falls between 0 and the top, 0..1. */
    public function fraction(float $value): float
    {
        return max(0.0, min(1.0, $value / $this->top));
    }
}
