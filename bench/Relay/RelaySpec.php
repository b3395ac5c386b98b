<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use WarmHttp\Bench\Row;

/**
 * One relay row before it is measured: its id, label and unit, so that skipped and failed
 * rows land in the right table segment and chart scale too.
 *
 * @internal bench tooling
 */
final readonly class RelaySpec
{
    public const GROUP = 'relay';

    public function __construct(public string $name, public string $label, public string $unit) {}

    public function skipped(string $reason): Row
    {
        return new Row(self::GROUP, $this->name, $this->label, Row::SKIPPED, $reason, $this->unit);
    }

    public function failed(string $reason): Row
    {
        return new Row(self::GROUP, $this->name, $this->label, Row::FAILED, $reason, $this->unit);
    }

    /**
     * @param array<string, float|int|string> $extra
     */
    public function measured(float $min, float $median, float $max, int $requests, array $extra, ?int $connections = null, ?float $limit = null, ?string $limitFormula = null): Row
    {
        return new Row(
            self::GROUP,
            $this->name,
            $this->label,
            Row::OK,
            unit: $this->unit,
            min: $min,
            median: $median,
            max: $max,
            requests: $requests,
            connections: $connections,
            limit: $limit,
            limitFormula: $limitFormula,
            extra: $extra,
        );
    }
}
