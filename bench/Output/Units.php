<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Output;

/**
 * How the chart names a row unit, which way is better, and how it writes numbers.
 *
 * @internal bench tooling
 */
final class Units
{
    private const DESCRIPTIONS = [
        'ms' => 'milliseconds',
        'µs' => 'CPU µs per request (user + sys of the bench process)',
        'µs/call' => 'µs the caller is blocked per call, median',
        'deliveries/s' => 'deliveries per second',
        'req/min' => 'requests per minute',
    ];

    /** "milliseconds, lower is better"; rates (per second, per minute) are better higher. */
    public static function describe(string $unit): string
    {
        return (self::DESCRIPTIONS[$unit] ?? $unit) . (self::higherIsBetter($unit) ? ', higher is better →' : ', lower is better');
    }

    public static function higherIsBetter(string $unit): bool
    {
        return str_ends_with($unit, '/s') || str_ends_with($unit, '/min');
    }

    /** The unit after a value: the CPU rows' bare "µs" is per request. */
    public static function short(string $unit): string
    {
        return $unit === 'µs' ? 'µs/req' : $unit;
    }

    /** 142,006 · 1096 · 16.6 · 20 · 0.5: whole numbers from 100, one decimal below, no ".0". */
    public static function number(float $value): string
    {
        if (abs($value) >= 10000) {
            return number_format($value, 0, '.', ',');
        }
        if (abs($value) >= 100) {
            return \sprintf('%.0f', $value);
        }

        return rtrim(rtrim(\sprintf('%.1f', $value), '0'), '.') ?: '0';
    }
}
