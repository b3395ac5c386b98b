<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Output;

use WarmHttp\Bench\Report;

/**
 * The results as Markdown tables, ready to paste into docs/benchmarks.md.
 *
 * @internal bench tooling
 */
final class MarkdownReport
{
    public static function render(Report $report, string $chartFile): string
    {
        $meta = $report->meta;
        $lines = [
            '# WarmHttp bench results',
            '',
            \sprintf('- date: %s; machine: %s', self::scalar($meta['date'] ?? ''), self::scalar($meta['machine'] ?? '')),
            \sprintf('- commit: %s', self::scalar($meta['commit'] ?? 'not recorded')),
            \sprintf('- command: `%s`', self::scalar($meta['command'] ?? '')),
            \sprintf('- target: %s', self::scalar($meta['target'] ?? '')),
            \sprintf('- load average before / after: %s / %s', self::scalar($meta['loadBefore'] ?? ''), self::scalar($meta['loadAfter'] ?? '')),
            '',
            \sprintf('![bench chart](%s)', $chartFile),
            '',
        ];
        foreach ($report->byGroup() as $group => $rows) {
            $lines[] = \sprintf('## %s (`%s`)', $report->titles[$group] ?? $group, $group);
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
        $lines[] = '## Goals';
        $lines[] = '';
        $lines[] = self::line(['', 'goal', 'measured']);
        $lines[] = self::line(['---', '---', '---']);
        foreach ($report->goals as $goal) {
            $lines[] = self::line(Cells::goal($goal));
        }

        return implode("\n", $lines) . "\n";
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
