<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bench;

use PHPUnit\Framework\TestCase;
use WarmHttp\Bench\BenchException;
use WarmHttp\Bench\Goal;
use WarmHttp\Bench\Output\ResultsBlock;
use WarmHttp\Bench\Report;
use WarmHttp\Bench\Row;

/**
 * `bench --doc`: the results block of a document is replaced by one run's tables, the text
 * around it kept, the chart linked relative to the document.
 */
final class ResultsBlockTest extends TestCase
{
    private string $dir;

    protected function setUp(): void
    {
        $this->dir = sys_get_temp_dir() . '/warmhttp-results-block-' . getmypid();
        mkdir($this->dir . '/bench-results/default', 0o777, true);
    }

    protected function tearDown(): void
    {
        @unlink($this->dir . '/doc.md');
        @rmdir($this->dir . '/bench-results/default');
        @rmdir($this->dir . '/bench-results');
        @rmdir($this->dir);
    }

    public function testTheBlockIsReplacedAndTheTextAroundItKept(): void
    {
        file_put_contents($this->dir . '/doc.md', "# Benchmarks\n\nmethod\n\n" . ResultsBlock::BEGIN . "\nold numbers\n" . ResultsBlock::END . "\n\nwhat the goals say\n");
        $report = new Report(['commit' => 'abc1234'], ['seq' => '50 sequential GETs'], [new Row('seq', 'warmhttp', 'WarmHttp Client', Row::OK, median: 1096.0, min: 1089.0, max: 1101.0, limit: 1040.0)], [new Goal('sequential', '1.05×', true)]);

        ResultsBlock::fill($this->dir . '/doc.md', $report, $this->dir . '/bench-results/default');
        ResultsBlock::fill($this->dir . '/doc.md', $report, $this->dir . '/bench-results/default');

        $doc = (string) file_get_contents($this->dir . '/doc.md');
        self::assertStringStartsWith("# Benchmarks\n\nmethod\n\n" . ResultsBlock::BEGIN . "\n", $doc);
        self::assertStringEndsWith(ResultsBlock::END . "\n\nwhat the goals say\n", $doc);
        self::assertStringNotContainsString('old numbers', $doc);
        self::assertSame(1, substr_count($doc, '| WarmHttp Client | 1096 ms |'), 'filled twice, in the block once');
        self::assertStringContainsString('![bench chart](bench-results/default/bench.svg)', $doc);
        self::assertStringContainsString('### 50 sequential GETs (`seq`)', $doc);
        self::assertStringContainsString('- commit: abc1234', $doc);
    }

    public function testADocumentWithoutTheBlockIsRefused(): void
    {
        file_put_contents($this->dir . '/doc.md', "# Benchmarks\n");

        $this->expectException(BenchException::class);
        $this->expectExceptionMessage('has no results block');
        ResultsBlock::fill($this->dir . '/doc.md', new Report([], [], [], []), $this->dir);
    }
}
