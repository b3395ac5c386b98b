<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Output;

use WarmHttp\Bench\BenchException;
use WarmHttp\Bench\Report;

/**
 * Fills a document's results block (`bench --doc=docs/benchmarks.md`): everything between the
 * two marker lines is replaced by the run's tables, so the published numbers come from one
 * run and nothing is copied by hand. The text around the block is the author's.
 *
 * @internal bench tooling
 */
final class ResultsBlock
{
    public const BEGIN = '<!-- bench-results:begin (filled by bin/warmhttp bench --doc; do not edit by hand) -->';
    public const END = '<!-- bench-results:end -->';

    /** @param string $outDir where the run's bench.svg is, for the chart's link relative to the document */
    public static function fill(string $docFile, Report $report, string $outDir): void
    {
        $doc = @file_get_contents($docFile);
        $begin = \is_string($doc) ? strpos($doc, self::BEGIN) : false;
        $end = \is_string($doc) ? strpos($doc, self::END) : false;
        if (!\is_string($doc) || $begin === false || $end === false || $end < $begin) {
            throw new BenchException(\sprintf('--doc: "%s" has no results block (a line "%s", later a line "%s").', $docFile, self::BEGIN, self::END));
        }
        $chart = self::relative((realpath($outDir) ?: $outDir) . '/bench.svg', realpath(\dirname($docFile)) ?: \dirname($docFile));
        $block = self::BEGIN . "\n\n" . MarkdownReport::results($report, $chart, 3) . "\n";
        file_put_contents($docFile, substr($doc, 0, $begin) . $block . substr($doc, $end));
    }

    /** $path as seen from $fromDir (both absolute, or both relative to the same directory). */
    private static function relative(string $path, string $fromDir): string
    {
        $to = array_values(array_filter(explode('/', $path), static fn(string $p): bool => $p !== '' && $p !== '.'));
        $from = array_values(array_filter(explode('/', $fromDir), static fn(string $p): bool => $p !== '' && $p !== '.'));
        while ($to !== [] && $from !== [] && $to[0] === $from[0]) {
            array_shift($to);
            array_shift($from);
        }

        return implode('/', [...array_fill(0, \count($from), '..'), ...$to]);
    }
}
