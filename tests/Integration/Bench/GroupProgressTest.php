<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bench;

use PHPUnit\Framework\TestCase;
use Symfony\Component\Console\Helper\ProgressBar;
use Symfony\Component\Console\Output\BufferedOutput;
use WarmHttp\Bench\Output\GroupProgress;

/**
 * A group's heading is printed with its first progress line, never for a group that does nothing.
 */
final class GroupProgressTest extends TestCase
{
    public function testAGroupThatWritesNothingPrintsNoHeading(): void
    {
        $output = new BufferedOutput();
        (new GroupProgress($output, '<comment>CPU per warm request</comment>'))->finish();

        self::assertSame('', $output->fetch());
    }

    public function testTheHeadingComesOnceBeforeTheFirstLineAndAProgressBarsLastLineIsEnded(): void
    {
        $output = new BufferedOutput();
        $progress = new GroupProgress($output, '<comment>10 sequential GETs</comment>');
        $bar = new ProgressBar($progress, 2);
        $bar->advance();
        $bar->advance();
        $bar->clear();
        $progress->finish();
        $output->writeln('next heading');

        $lines = explode("\n", $output->fetch());
        self::assertSame('10 sequential GETs', $lines[0]);
        self::assertSame(1, substr_count(implode("\n", $lines), '10 sequential GETs'));
        self::assertStringStartsWith(' 2/2 [', $lines[\count($lines) - 3]);
        self::assertSame(['next heading', ''], \array_slice($lines, -2));
    }
}
