<?php

declare(strict_types=1);

namespace WarmHttp\Relay;

/**
 * The relay's counters since start, rendered in the Prometheus text format (GET /metrics on the
 * relay socket). Queue depth and dead letters come from the spool at scrape time.
 *
 * @internal
 */
final class Metrics
{
    /** @var array<string, int> */
    private array $counters = [
        'accepted_total' => 0,
        'rejected_total' => 0,
        'delivery_attempts_total' => 0,
        'delivered_total' => 0,
        'retries_scheduled_total' => 0,
        'dead_lettered_total' => 0,
        'sync_requests_total' => 0,
        'spool_commits_total' => 0,
        'spool_failures_total' => 0,
    ];

    private readonly float $startedAt;

    public function __construct()
    {
        $this->startedAt = microtime(true);
    }

    public function add(string $counter, int $by = 1): void
    {
        $this->counters[$counter] = ($this->counters[$counter] ?? 0) + $by;
    }

    /** @return array<string, int> */
    public function counters(): array
    {
        return $this->counters;
    }

    public function get(string $counter): int
    {
        return $this->counters[$counter] ?? 0;
    }

    /**
     * @param array<string, int|float> $gauges
     * @param array<string, int>       $others counters of the delivery worker, added to ours
     */
    public function render(array $gauges, array $others = []): string
    {
        $lines = [];
        $counters = $this->counters;
        foreach ($others as $name => $value) {
            $counters[$name] = ($counters[$name] ?? 0) + $value;
        }
        foreach ($counters as $name => $value) {
            $lines[] = "# TYPE warmhttp_relay_$name counter";
            $lines[] = "warmhttp_relay_$name $value";
        }
        $gauges['uptime_seconds'] = round(microtime(true) - $this->startedAt, 3);
        foreach ($gauges as $name => $value) {
            $lines[] = "# TYPE warmhttp_relay_$name gauge";
            $lines[] = "warmhttp_relay_$name $value";
        }

        return implode("\n", $lines) . "\n";
    }
}
