<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Output;

use WarmHttp\Bench\Goal;
use WarmHttp\Bench\Report;
use WarmHttp\Bench\Row;

/**
 * The chart a person reads instead of the tables. On top: where it ran (RTT, machine, commit)
 * and every goal, met or missed. Below, one panel per group and unit: each row's median as a
 * bar from zero on one linear scale for the whole panel (so a longer bar is a slower row, or
 * for rates a faster one), min–max as a whisker, and the row's physical limit as a black mark.
 * Plain SVG: no GD, renders on GitHub.
 *
 * @internal bench tooling
 */
final class SvgChart
{
    private const WIDTH = 1200;
    /** Labels end here (right-aligned); the bars start a little after. */
    private const LABEL_RIGHT = 430;
    private const BAR_LEFT = 440;
    private const BAR_WIDTH = 430;
    private const ROW = 22;
    /** Average width of a character of the 11 px value text, to cut notes at the edge. */
    private const CHAR_PX = 6.1;
    private const OURS = '#1565c0';
    private const OTHERS = '#9eacb4';
    private const MET = '#2e7d32';
    private const MISSED = '#c62828';
    private const NOT_JUDGED = '#9e9e9e';
    /** Where a goal's measured numbers start: after the longest goal's text (~72 characters). */
    private const GOAL_MEASURED = 575;

    private int $y = 0;
    /** @var list<string> */
    private array $parts = [];

    public static function render(Report $report): string
    {
        $chart = new self();
        $chart->header($report->meta);
        $chart->goals($report->goals);
        foreach ($report->byGroup() as $group => $rows) {
            $chart->group($report->titles[$group] ?? $group, $rows);
        }

        return $chart->document();
    }

    /** @param array<string, mixed> $meta */
    private function header(array $meta): void
    {
        $this->y = 22;
        $this->text(10, $this->y, 'WarmHttp benchmark: what each way of making HTTP calls from PHP costs', 'title');
        foreach (ChartMeta::lines($meta) as $line) {
            $this->y += 16;
            $this->text(10, $this->y, $line, 'meta');
        }
        $this->y += 20;
        $this->legend($this->y);
    }

    private function legend(int $y): void
    {
        $x = 10.0;
        $x = $this->legendItem($x, $y, \sprintf('<rect x="%%.1f" y="%d" width="14" height="10" fill="%s"/>', $y - 9, self::OURS), 'WarmHttp');
        $x = $this->legendItem($x, $y, \sprintf('<rect x="%%.1f" y="%d" width="14" height="10" fill="%s"/>', $y - 9, self::OTHERS), 'everything else');
        $this->legendItem($x, $y, \sprintf('<line x1="%%1$.1f" x2="%%1$.1f" y1="%d" y2="%d" class="limit"/>', $y - 12, $y + 3), 'the row\'s physical limit: the least time this network allows');
        $this->y += 15;
        $this->text(10, $this->y, 'Bars start at zero, one linear scale per panel. Whisker: min–max of the repeats (per-call latencies: the fastest call to p99).', 'note');
    }

    private function legendItem(float $x, int $y, string $mark, string $text): float
    {
        $this->parts[] = \sprintf($mark, $x);
        $this->text($x + 18, $y, $text, 'note');

        return $x + 18 + self::CHAR_PX * mb_strlen($text) + 22;
    }

    /** @param list<Goal> $goals */
    private function goals(array $goals): void
    {
        if ($goals === []) {
            return;
        }
        $met = \count(array_filter($goals, static fn(Goal $g): bool => $g->met === true));
        $this->y += 30;
        $this->text(10, $this->y, \sprintf('Goals: %d of %d met', $met, \count($goals)), 'heading');
        foreach ($goals as $goal) {
            $this->y += 19;
            [$word, $color] = match ($goal->met) {
                true => ['MET', self::MET],
                false => ['MISSED', self::MISSED],
                null => ['NOT RUN', self::NOT_JUDGED],
            };
            $this->parts[] = \sprintf('<rect x="10" y="%d" width="62" height="15" rx="3" fill="%s"/>', $this->y - 12, $color);
            $this->text(41, $this->y, $word, 'badge');
            $this->fitted(80, $this->y, $goal->goal, 'goal', self::GOAL_MEASURED - 90, 6.6);
            $this->fitted(self::GOAL_MEASURED, $this->y, $goal->measured, 'note');
        }
    }

    /** @param list<Row> $rows */
    private function group(string $title, array $rows): void
    {
        $this->y += 34;
        $this->fitted(10, $this->y, $title, 'heading', self::WIDTH - 20, 8.0);
        foreach (self::segments($rows) as $segment) {
            $this->panel($segment);
        }
    }

    /**
     * One scale per unit: the relay group has µs per call, deliveries/s, ms and requests per
     * minute, each its own panel.
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

    /** @param non-empty-list<Row> $rows one unit */
    private function panel(array $rows): void
    {
        $scale = ChartScale::for($rows);
        $this->y += 18;
        $this->text(self::LABEL_RIGHT, $this->y, Units::describe($rows[0]->unit), 'unit');
        $this->y += 14;
        $top = $this->y;
        $bottom = $top + \count($rows) * self::ROW;
        foreach ($scale->ticks() as $tick) {
            $x = $this->x($scale->fraction($tick));
            $this->parts[] = \sprintf('<line x1="%1$.1f" x2="%1$.1f" y1="%2$d" y2="%3$d" class="grid"/>', $x, $top, $bottom);
            $this->text($x, $top - 2, Units::number($tick), 'tick');
        }
        foreach ($rows as $row) {
            $this->row($row, $scale);
            $this->y += self::ROW;
        }
    }

    private function row(Row $row, ChartScale $scale): void
    {
        $ours = str_starts_with($row->name, 'warmhttp');
        $this->fitted(self::LABEL_RIGHT, $this->y + 15, $row->label, $ours ? 'label ours' : 'label', self::LABEL_RIGHT - 10);
        if (!$row->ok() || $row->median === null) {
            $this->fitted(self::BAR_LEFT, $this->y + 15, $row->status . ': ' . $row->reason, 'note');

            return;
        }
        $end = $this->x($scale->fraction($row->median));
        $this->parts[] = \sprintf('<rect x="%d" y="%d" width="%.1f" height="14" fill="%s"/>', self::BAR_LEFT, $this->y + 4, max(1.5, $end - self::BAR_LEFT), $ours ? self::OURS : self::OTHERS);
        [$low, $high] = ChartScale::whisker($row);
        $whiskerEnd = $this->x($scale->fraction($high));
        $this->parts[] = \sprintf('<line x1="%1$.1f" x2="%2$.1f" y1="%3$d" y2="%3$d" class="whisker"/>', $this->x($scale->fraction($low)), $whiskerEnd, $this->y + 11);
        $limitX = self::BAR_LEFT;
        if ($row->limit !== null) {
            $limitX = $this->x($scale->fraction($row->limit));
            $this->parts[] = \sprintf('<line x1="%1$.1f" x2="%1$.1f" y1="%2$d" y2="%3$d" class="limit"/>', $limitX, $this->y + 1, $this->y + 21);
        }
        $this->fitted(max($end, $whiskerEnd, $limitX) + 6, $this->y + 15, self::value($row), 'value');
    }

    /** "1096 ms · 1.05× its limit · 1 conn", or the value and the row's note. */
    private static function value(Row $row): string
    {
        $parts = [Units::number((float) $row->median) . ' ' . Units::short($row->unit)];
        $ratio = $row->ratio();
        if ($ratio !== null) {
            $parts[] = \sprintf('%.2f× its limit', $ratio);
            $parts[] = $row->connections === null ? '' : $row->connections . ' conn';
        }
        $vsCurl = $row->extra['vsRawCurl'] ?? null;
        $parts[] = is_numeric($vsCurl) ? \sprintf('%.2f× raw curl in CPU time', $vsCurl) : '';
        $note = $row->extra['note'] ?? null;
        $parts[] = \is_string($note) ? $note : '';

        return implode(' · ', array_filter($parts, static fn(string $p): bool => $p !== ''));
    }

    private function x(float $fraction): float
    {
        return self::BAR_LEFT + self::BAR_WIDTH * $fraction;
    }

    /** Text cut with "…" to what fits before the right edge (or in $maxWidth px). */
    private function fitted(float $x, float $y, string $text, string $class, ?float $maxWidth = null, float $charPx = self::CHAR_PX): void
    {
        $chars = (int) floor(($maxWidth ?? (self::WIDTH - $x - 8)) / $charPx);
        $this->text($x, $y, mb_strimwidth($text, 0, max(8, $chars), '…'), $class);
    }

    private function text(float $x, float $y, string $text, string $class): void
    {
        $this->parts[] = \sprintf('<text x="%.1f" y="%.1f" class="%s">%s</text>', $x, $y, $class, htmlspecialchars($text, \ENT_XML1));
    }

    private function document(): string
    {
        $height = $this->y + 16;
        $style = '.title{font:bold 17px sans-serif}.heading{font:bold 14px sans-serif}.meta{font:12px sans-serif;fill:#333}'
            . '.unit{font:italic 11px sans-serif;fill:#444;text-anchor:end}.goal{font:12px sans-serif}'
            . '.badge{font:bold 10px sans-serif;fill:#fff;text-anchor:middle}'
            . '.label{font:12px sans-serif;text-anchor:end}.ours{font-weight:bold}.value,.note{font:11px sans-serif}'
            . '.note{fill:#666}.tick{font:10px sans-serif;text-anchor:middle;fill:#555}.grid{stroke:#e4e4e4}'
            . '.limit{stroke:#000;stroke-width:2.5}.whisker{stroke:#333;stroke-width:1.2}';

        return \sprintf('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %1$d %2$d">', self::WIDTH, $height)
            . \sprintf('<style>%s</style><rect width="100%%" height="100%%" fill="#fff"/>', $style)
            . implode("\n", $this->parts) . "\n</svg>\n";
    }
}
