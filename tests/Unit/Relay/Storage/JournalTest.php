<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Storage;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Storage\Journal;
use WarmHttp\Relay\Storage\SpoolUnavailable;
use WarmHttp\Tests\Unit\Support\TempDirectory;

final class JournalTest extends TestCase
{
    private TempDirectory $temp;

    protected function setUp(): void
    {
        $this->temp = new TempDirectory();
    }

    protected function tearDown(): void
    {
        $this->temp->remove();
    }

    public function testLivesBesideTheSpoolInZeroPaddedSegmentFiles(): void
    {
        self::assertSame('/var/lib/relay.sqlite.journal', Journal::dirFor('/var/lib/relay.sqlite'));
        self::assertSame('/j/0000000042.log', Journal::segmentPath('/j', 42));
    }

    public function testListsSegmentsInNumericOrderAndIgnoresOtherFiles(): void
    {
        foreach ([10, 2, 9] as $segment) {
            touch(Journal::segmentPath($this->temp->path, $segment));
        }
        touch($this->temp->path . '/notes.txt');

        self::assertSame([2, 9, 10], Journal::segments($this->temp->path));
        self::assertSame(10, Journal::lastSegment($this->temp->path));
    }

    public function testAnEmptyOrMissingDirectoryHasNoSegments(): void
    {
        self::assertSame([], Journal::segments($this->temp->path));
        self::assertSame(0, Journal::lastSegment($this->temp->path . '/missing'));
    }

    public function testEnsureDirCreatesMissingParents(): void
    {
        Journal::ensureDir($this->temp->path . '/a/b/journal');

        self::assertDirectoryExists($this->temp->path . '/a/b/journal');
    }

    public function testEnsureDirFailsWhereAFileIsInTheWay(): void
    {
        touch($this->temp->path . '/file');

        $this->expectException(SpoolUnavailable::class);
        $this->expectExceptionMessage('Cannot create the journal directory');

        Journal::ensureDir($this->temp->path . '/file/journal');
    }
}
