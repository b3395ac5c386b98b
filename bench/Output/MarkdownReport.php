<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Output;

use WarmHttp\Bench\Report;

/**
 * The results as Markdown tables: bench.md, and the same tables inside docs/benchmarks.md
 * (ResultsBlock, with headings one level down).
 *
 * @internal bench tooling
 */
final class MarkdownReport
{
    public static function render(Report $report, string $chartFile): string
    {
        return "# WarmHttp bench results\n\n" . self::results($report, $chartFile, 2);
    }

    /** Where and how it ran, the chart, a table per group and the goals, headings at $level. */
    public static function results(Report $report, string $chartFile, int $level): string
    {
        $heading = str_repeat('#', $level);
        $lines = [...self::meta($report->meta), '', \sprintf('![bench chart](%s)', $chartFile), ''];
        foreach ($report->byGroup() as $group => $rows) {
            $lines[] = \sprintf('%s %s (`%s`)', $heading, $report->titles[$group] ?? $group, $group);
            $lines[] = '';
            $lines[] = self::line(Cells::header());
            $lines[] = self::line(array_fill(0, \count(Cells::header()), '---'));
            foreach ($rows as $row) {
                $lines[] = self::line(Cells::row($row));
            }
            if ($rows[0]->limitFormula !== null) {
                $lines[] = '';
                $lines[] = 'Limit: ' . $rows[0]->limitFormula . ' (first row; every row\'s formula is in the JSON).';
            }
            $lines[] = '';
        }
        $lines[] = $heading . ' Goals';
        $lines[] = '';
        $lines[] = self::line(['', 'goal', 'measured']);
        $lines[] = self::line(['---', '---', '---']);
        foreach ($report->goals as $goal) {
            $lines[] = self::line(Cells::goal($goal));
        }

        return implode("\n", $lines) . "\n";
    }

    /**
     * @param array<string, mixed> $meta
     *
     * @return list<string>
     */
    private static function meta(array $meta): array
    {
        return [
            \sprintf('- date: %s; machine: %s', self::scalar($meta['date'] ?? ''), self::scalar($meta['machine'] ?? '')),
            \sprintf('- commit: %s', self::scalar($meta['commit'] ?? 'not recorded')),
            \sprintf('- command: `%s`', self::scalar($meta['command'] ?? '')),
            \sprintf('- target: %s', self::scalar($meta['target'] ?? '')),
            \sprintf('- load average before / after: %s / %s', self::scalar($meta['loadBefore'] ?? ''), self::scalar($meta['loadAfter'] ?? '')),
        ];
    }

    /** @param list<string> $cells */
    private static function line(array $cells): string
    {
        return '| ' . implode(' | ', array_map(static fn(string $c): string => str_replace('|', '\|', $c), $cells)) . ' |';
    }

    private static function scalar(mixed $value): string
    {
        return \is_scalar($value) ? (string) $value : (string) json_encode($value);
    }
}
