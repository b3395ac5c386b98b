<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Output;

use WarmHttp\Bench\Goals;
use WarmHttp\Bench\Report;
use WarmHttp\Bench\Row;

/**
 * The chart a person reads instead of the table: per scenario, a bar of its median time over
 * the physical limit on a log scale (so 1.05× and 3× both read), the min–max as a whisker;
 * rows without a limit (CPU µs per request, the relay's µs per call, deliveries/s, requests per
 * minute) as their value on a linear scale. Plain SVG: no GD, renders on GitHub.
 *
 * @internal bench tooling
 */
final class SvgChart
{
    private const WIDTH = 1060;
    private const LABEL_WIDTH = 400;
    private const BAR_WIDTH = 420;
    private const ROW = 22;
    private const HEADING = 34;
    private const GREEN_WITHOUT_GOAL = 1.1;
    private const AMBER_UP_TO = 1.5;

    private int $y = 62;
    /** @var list<string> */
    private array $parts = [];

    private function __construct(private readonly float $maxRatio) {}

    public static function render(Report $report): string
    {
        $ratios = array_filter(array_map(static fn(Row $r): ?float => $r->ratio(), $report->rows));
        $chart = new self(max(4.0, ...($ratios ?: [1.0])));
        $chart->text(10, 20, 'WarmHttp bench: time over the physical limit (1× = as fast as the network allows; log scale)', 'title');
        $chart->text(10, 36, 'bar = median of the repeats, whisker = min–max, dashed line = the limit. Rows without a limit (CPU µs per request, relay): their value, linear.', 'note');
        $chart->text(10, 50, 'green: within the group\'s goal (sequential 1.05×, parallel 1.3×, relay sync 1 RTT + 0.3 ms; 1.1× for a group without one), amber ≤ 1.5×, red above.', 'note');
        foreach ($report->byGroup() as $group => $rows) {
            $chart->group($report->titles[$group] ?? $group, $rows);
        }

        return $chart->document();
    }

    /** @param list<Row> $rows */
    private function group(string $title, array $rows): void
    {
        $this->y += 10;
        $this->text(10, $this->y + 14, $title, 'heading');
        $this->y += self::HEADING - 10;
        foreach (self::segments($rows) as $i => $segment) {
            $this->segment($segment, $i > 0);
        }
    }

    /**
     * Consecutive rows of one unit share a scale: the relay group mixes µs per call,
     * deliveries/s, ms against a limit and requests per minute.
     *
     * @param list<Row> $rows
     *
     * @return list<non-empty-list<Row>>
     */
    private static function segments(array $rows): array
    {
        $segments = $current = [];
        foreach ($rows as $row) {
            if ($current !== [] && $row->unit !== $current[0]->unit) {
                $segments[] = $current;
                $current = [];
            }
            $current[] = $row;
        }

        return $current === [] ? $segments : [...$segments, $current];
    }

    /**
     * Rows with a limit: time over the limit, log scale. Others: their value, linear.
     *
     * @param non-empty-list<Row> $rows
     */
    private function segment(array $rows, bool $gap): void
    {
        $againstLimit = array_filter($rows, static fn(Row $r): bool => $r->ratio() !== null) !== [];
        if ($gap) {
            $this->y += $againstLimit ? 14 : 6; // room for the axis labels above the bars
        }
        if ($againstLimit) {
            $this->axis(\count($rows));
        }
        $max = max(1.0, ...array_map(static fn(Row $r): float => $r->max ?? $r->median ?? 0.0, $rows));
        foreach ($rows as $row) {
            $this->text(self::LABEL_WIDTH - 8, $this->y + 15, $row->label, str_starts_with($row->name, 'warmhttp') ? 'label ours' : 'label');
            if (!$row->ok()) {
                $this->text(self::LABEL_WIDTH + 4, $this->y + 15, $row->status . ': ' . $row->reason, 'note');
            } elseif ($row->ratio() !== null) {
                $this->ratioBar($row);
            } else {
                $this->valueBar($row, $max);
            }
            $this->y += self::ROW;
        }
    }

    private function ratioBar(Row $row): void
    {
        $ratio = (float) $row->ratio();
        $end = $this->x($ratio);
        $color = self::color($ratio, Goals::ratioTarget($row));
        $this->parts[] = \sprintf('<rect x="%d" y="%d" width="%.1f" height="14" fill="%s"/>', self::LABEL_WIDTH, $this->y + 4, max(1.0, $end - self::LABEL_WIDTH), $color);
        $whiskerEnd = $this->x((float) $row->max / (float) $row->limit);
        $this->whisker($this->x((float) $row->min / (float) $row->limit), $whiskerEnd);
        $this->text(max($end, $whiskerEnd) + 6, $this->y + 15, \sprintf('%.2f× · %s ms · %s conn', $ratio, Cells::number($row->median), $row->connections ?? '?'), 'value');
    }

    /** Green within the group's own goal (1.1× where it has none), amber up to 1.5×, red above. */
    private static function color(float $ratio, ?float $goal): string
    {
        $green = $goal ?? self::GREEN_WITHOUT_GOAL;

        return $ratio <= $green ? '#2e7d32' : ($ratio <= max(self::AMBER_UP_TO, $green) ? '#f9a825' : '#c62828');
    }

    private function valueBar(Row $row, float $max): void
    {
        // The longest value bar takes 60% of the width: its text (value · note) needs the rest.
        $scale = static fn(?float $value): float => self::LABEL_WIDTH + 0.6 * self::BAR_WIDTH * (float) $value / $max;
        $end = $scale($row->median);
        $this->parts[] = \sprintf('<rect x="%d" y="%d" width="%.1f" height="14" fill="%s"/>', self::LABEL_WIDTH, $this->y + 4, max(1.0, $end - self::LABEL_WIDTH), str_starts_with($row->name, 'warmhttp') ? '#1565c0' : '#78909c');
        $this->whisker($scale($row->min), $scale($row->max));
        $note = $row->ratio() === null ? Cells::note($row) : '';
        $this->text(max($end, $scale($row->max)) + 6, $this->y + 15, Cells::value($row) . ($note === '' ? '' : ' · ' . $note), 'value');
    }

    private function whisker(float $from, float $to): void
    {
        $this->parts[] = \sprintf('<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" class="whisker"/>', $from, $to, $this->y + 11, $this->y + 11);
    }

    private function axis(int $rows): void
    {
        $bottom = $this->y + $rows * self::ROW;
        foreach ([1, 1.05, 1.3, 2, 3, 5, 10, 20, 50] as $tick) {
            if ($tick <= $this->maxRatio) {
                $x = $this->x($tick);
                $this->parts[] = \sprintf('<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" class="%s"/>', $x, $x, $this->y, $bottom, $tick === 1 ? 'limit' : 'grid');
                if ($tick !== 1.05) {
                    $this->text($x, $this->y - 2, $tick . '×', 'tick');
                }
            }
        }
    }

    /** Log scale from 0.9× (so a row at the limit still shows a bar) to the largest ratio. */
    private function x(float $ratio): float
    {
        $min = log(0.9);
        $span = log($this->maxRatio * 1.05) - $min;

        return self::LABEL_WIDTH + self::BAR_WIDTH * (log(max(0.9, $ratio)) - $min) / $span;
    }

    private function text(float $x, float $y, string $text, string $class): void
    {
        $this->parts[] = \sprintf('<text x="%.1f" y="%.1f" class="%s">%s</text>', $x, $y, $class, htmlspecialchars($text, \ENT_XML1));
    }

    private function document(): string
    {
        $height = $this->y + 20;
        $style = '.title{font:bold 15px sans-serif}.heading{font:bold 13px sans-serif}'
            . '.label{font:12px sans-serif;text-anchor:end}.ours{font-weight:bold}.value,.note{font:11px sans-serif}'
            . '.note{fill:#777}.tick{font:10px sans-serif;text-anchor:middle;fill:#555}.grid{stroke:#ddd}'
            . '.limit{stroke:#000;stroke-dasharray:3 2}.whisker{stroke:#333;stroke-width:1.5}';

        return \sprintf('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %1$d %2$d">', self::WIDTH, $height)
            . \sprintf('<style>%s</style><rect width="100%%" height="100%%" fill="#fff"/>', $style)
            . implode("\n", $this->parts) . "\n</svg>\n";
    }
}
