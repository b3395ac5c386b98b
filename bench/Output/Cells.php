<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Output;

use WarmHttp\Bench\Goal;
use WarmHttp\Bench\Row;

/**
 * The table cells shared by the terminal and Markdown writers, so both say the same thing.
 *
 * @internal bench tooling
 */
final class Cells
{
    /** @return list<string> */
    public static function header(): array
    {
        return ['scenario', 'median', 'min – max', 'conns', 'TLS full/resumed', 'limit', '× limit / note'];
    }

    /** @return list<string> */
    public static function row(Row $row): array
    {
        if (!$row->ok()) {
            // Reasons can be long exception messages; the JSON keeps them whole.
            return [$row->label, $row->status, mb_strimwidth((string) $row->reason, 0, 90, '…'), '', '', '', ''];
        }

        return [
            $row->label,
            self::value($row),
            self::number($row->min) . ' – ' . self::number($row->max),
            $row->connections === null ? '' : (string) $row->connections,
            $row->tlsFull === null ? '' : $row->tlsFull . ' / ' . $row->tlsResumed,
            $row->limit === null ? '' : self::number($row->limit) . ' ms',
            self::note($row),
        ];
    }

    /** The median with its unit: "1070 ms", "77.0 µs/req" (CPU), "41.3 µs/call", "5210 deliveries/s". */
    public static function value(Row $row): string
    {
        return self::number($row->median) . ($row->unit === 'µs' ? ' µs/req' : ' ' . $row->unit);
    }

    /** The last column: × limit, × raw curl (CPU), or the row's own note (p99, lost, ...). */
    public static function note(Row $row): string
    {
        $vsCurl = $row->extra['vsRawCurl'] ?? null;
        $note = $row->extra['note'] ?? null;
        $parts = [
            $row->ratio() !== null ? \sprintf('%.2f×', $row->ratio()) : ($vsCurl === null ? '' : \sprintf('%.2f× raw curl in CPU time', $vsCurl)),
            \is_string($note) ? $note : '',
        ];

        return implode(' · ', array_filter($parts, static fn(string $part): bool => $part !== ''));
    }

    /** @return list<string> */
    public static function goal(Goal $goal): array
    {
        return [$goal->met === null ? '–' : ($goal->met ? 'met' : 'MISSED'), $goal->goal, $goal->measured];
    }

    public static function number(?float $value): string
    {
        return $value === null ? '' : ($value >= 100 ? \sprintf('%.0f', $value) : \sprintf('%.1f', $value));
    }
}
