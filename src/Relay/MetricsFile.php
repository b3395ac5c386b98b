<?php

declare(strict_types=1);

namespace WarmHttp\Relay;

/**
 * The delivery worker's counters, published as a small JSON file beside the spool so the front
 * process can serve them on GET /metrics with its own.
 *
 * @internal
 */
final class MetricsFile
{
    private const EVERY_SECONDS = 0.5;

    private float $publishedAt = 0.0;

    private int $lastInFlight = 0;

    public function __construct(private readonly Metrics $metrics, private readonly string $path) {}

    public static function pathFor(string $spoolPath): string
    {
        return $spoolPath . '.metrics.json';
    }

    /** @param array<string, int|float> $gauges the spool's, for a shared spool (the front reads SQLite's itself) */
    public function publish(int $inFlight, bool $force = false, array $gauges = []): void
    {
        $now = microtime(true);
        // Every half second, and at once when the worker falls idle, so a scrape after the
        // last delivery does not show it still in flight.
        $fellIdle = $inFlight === 0 && $this->lastInFlight !== 0;
        if (!$force && !$fellIdle && $now - $this->publishedAt < self::EVERY_SECONDS) {
            return;
        }
        $this->publishedAt = $now;
        $this->lastInFlight = $inFlight;
        $temporary = $this->path . '.tmp';
        if (@file_put_contents($temporary, json_encode(['counters' => $this->metrics->counters(), 'in_flight' => $inFlight, 'gauges' => $gauges])) !== false) {
            @rename($temporary, $this->path);
        }
    }

    /** @return array<string, int> the worker's counters as last published; empty before it did */
    public static function counters(string $path): array
    {
        $counters = self::read($path)['counters'] ?? null;

        $valid = [];
        foreach (\is_array($counters) ? $counters : [] as $name => $value) {
            if (\is_string($name) && \is_int($value)) {
                $valid[$name] = $value;
            }
        }

        return $valid;
    }

    /** @return array<string, int|float> the spool's gauges as the worker last published them */
    public static function gauges(string $path): array
    {
        $gauges = self::read($path)['gauges'] ?? null;
        $valid = [];
        foreach (\is_array($gauges) ? $gauges : [] as $name => $value) {
            if (\is_string($name) && (\is_int($value) || \is_float($value))) {
                $valid[$name] = $value;
            }
        }

        return $valid;
    }

    /** Deliveries the worker had in flight when it last published. */
    public static function inFlight(string $path): int
    {
        $inFlight = self::read($path)['in_flight'] ?? 0;

        return \is_int($inFlight) ? $inFlight : 0;
    }

    /** @return array<mixed> */
    private static function read(string $path): array
    {
        $published = json_decode((string) @file_get_contents($path), true);

        return \is_array($published) ? $published : [];
    }
}
