<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Front;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Front\JournalWriter;
use WarmHttp\Relay\Storage\Journal;
use WarmHttp\Relay\Storage\JournalRecord;
use WarmHttp\Relay\Storage\SpooledRequest;
use WarmHttp\Relay\Storage\SpoolLock;
use WarmHttp\Relay\Storage\SpoolUnavailable;
use WarmHttp\Tests\Unit\Support\TempDirectory;

final class JournalWriterTest extends TestCase
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

    public function testIdsAreTheSegmentAndOffsetOfEachRecord(): void
    {
        $writer = JournalWriter::open($this->temp->path, false, 0);
        $length = \strlen(JournalRecord::encode(self::request('a')));

        self::assertSame(['1-0', '1-' . $length], $writer->append([self::request('a'), self::request('b')]));
        self::assertSame(['1-' . 2 * $length], $writer->append([self::request('c')]));
    }

    public function testAppendsTheEncodedRecordsToTheSegmentFile(): void
    {
        JournalWriter::open($this->temp->path, false, 0)->append([self::request('a'), self::request('b')]);

        self::assertSame(
            JournalRecord::encode(self::request('a')) . JournalRecord::encode(self::request('b')),
            file_get_contents(Journal::segmentPath($this->temp->path, 1)),
        );
    }

    public function testEveryOpenStartsANewSegment(): void
    {
        JournalWriter::open($this->temp->path, false, 0);
        touch(Journal::segmentPath($this->temp->path, 7));

        self::assertSame(['8-0'], JournalWriter::open($this->temp->path, false, 0)->append([self::request('a')]));
    }

    public function testStartsANewSegmentPast256KiB(): void
    {
        $writer = JournalWriter::open($this->temp->path, false, 0);

        self::assertSame(['1-0'], $writer->append([self::request(str_repeat('x', 300_000))]));
        self::assertSame(['2-0'], $writer->append([self::request('after')]));
    }

    public function testARotationThatFailsKeepsTheSegmentAndTriesAgainLater(): void
    {
        $writer = JournalWriter::open($this->temp->path, false, 0);
        mkdir(Journal::segmentPath($this->temp->path, 2)); // in the way of the next segment

        self::assertSame(['1-0'], $writer->append([self::request(str_repeat('x', 300_000))]));
        $length = \strlen(JournalRecord::encode(self::request(str_repeat('x', 300_000))));
        self::assertSame(['1-' . $length], $writer->append([self::request('still here')]), 'no crash: the same segment goes on');
        self::assertSame([1], Journal::segments($this->temp->path), 'what is in the way is not taken for a segment');

        rmdir(Journal::segmentPath($this->temp->path, 2));
        $writer->append([self::request('rotates now')]);
        self::assertSame(['2-0'], $writer->append([self::request('in the next segment')]));
    }

    public function testHoldsTheSpoolLockItWasGiven(): void
    {
        $spool = $this->temp->path . '/spool.sqlite';
        $writer = JournalWriter::open(Journal::dirFor($spool), false, 0, SpoolLock::acquire($spool));

        $this->expectException(SpoolUnavailable::class);
        $this->expectExceptionMessage('Another relay');
        try {
            SpoolLock::acquire($spool);
        } finally {
            unset($writer);
        }
    }

    public function testCreatesTheDirectory(): void
    {
        JournalWriter::open($this->temp->path . '/spool.sqlite.journal', true, 0)->append([self::request('a')]);

        self::assertFileExists(Journal::segmentPath($this->temp->path . '/spool.sqlite.journal', 1));
    }

    public function testRefusesNewRequestsWhenLessThanTheReserveIsFree(): void
    {
        $writer = JournalWriter::open($this->temp->path, false, \PHP_INT_MAX);

        $this->expectException(SpoolUnavailable::class);
        $this->expectExceptionMessage('--spool-reserve');

        $writer->append([self::request('a')]);
    }

    private static function request(string $body): SpooledRequest
    {
        return new SpooledRequest(0, 'POST', 'https://a.example/', [['X-A', '1']], $body, 'key', 0, 1.0);
    }
}
