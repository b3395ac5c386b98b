<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Worker;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Front\JournalWriter;
use WarmHttp\Relay\Storage\Journal;
use WarmHttp\Relay\Storage\JournalPosition;
use WarmHttp\Relay\Storage\JournalRecord;
use WarmHttp\Relay\Storage\SpooledRequest;
use WarmHttp\Relay\Worker\JournalReader;
use WarmHttp\Tests\Unit\Support\TempDirectory;

final class JournalReaderTest extends TestCase
{
    private TempDirectory $temp;

    private JournalReader $reader;

    protected function setUp(): void
    {
        $this->temp = new TempDirectory();
        $this->reader = new JournalReader($this->temp->path);
    }

    protected function tearDown(): void
    {
        $this->temp->remove();
    }

    public function testAnEmptyJournalReadsNothingAndKeepsThePosition(): void
    {
        self::assertEquals([[], new JournalPosition(0, 0)], $this->reader->read(new JournalPosition(0, 0)));
    }

    public function testReadsWhatTheWriterAppendedAndThePositionAfterIt(): void
    {
        JournalWriter::open($this->temp->path, false, 0)->append([self::request('a'), self::request('b')]);

        [$requests, $position] = $this->reader->read(new JournalPosition(0, 0));

        self::assertSame(['a', 'b'], self::bodies($requests));
        self::assertEquals(new JournalPosition(1, (int) filesize(Journal::segmentPath($this->temp->path, 1))), $position);
        self::assertSame([], $this->reader->read($position)[0]);
    }

    public function testReadsOnFromAPositionInsideASegment(): void
    {
        $ids = JournalWriter::open($this->temp->path, false, 0)->append([self::request('a'), self::request('b')]);
        [$segment, $offset] = array_map('intval', explode('-', $ids[1]));

        self::assertSame(['b'], self::bodies($this->reader->read(new JournalPosition($segment, $offset))[0]));
    }

    public function testCrossesIntoLaterSegments(): void
    {
        JournalWriter::open($this->temp->path, false, 0)->append([self::request('a')]);
        JournalWriter::open($this->temp->path, false, 0)->append([self::request('b')]);

        [$requests, $position] = $this->reader->read(new JournalPosition(0, 0));

        self::assertSame(['a', 'b'], self::bodies($requests));
        self::assertSame(2, $position->segment);
    }

    public function testWaitsAtATornRecordInTheNewestSegment(): void
    {
        $whole = JournalRecord::encode(self::request('a'));
        file_put_contents(Journal::segmentPath($this->temp->path, 1), $whole . substr(JournalRecord::encode(self::request('b')), 0, 12));

        [$requests, $position] = $this->reader->read(new JournalPosition(0, 0));

        self::assertSame(['a'], self::bodies($requests));
        self::assertEquals(new JournalPosition(1, \strlen($whole)), $position);
    }

    public function testSkipsATornTailInAnOlderSegment(): void
    {
        file_put_contents(Journal::segmentPath($this->temp->path, 1), JournalRecord::encode(self::request('a')) . 'torn');
        file_put_contents(Journal::segmentPath($this->temp->path, 2), JournalRecord::encode(self::request('b')));

        self::assertSame(['a', 'b'], self::bodies($this->reader->read(new JournalPosition(0, 0))[0]));
    }

    public function testReadsAtMost512RecordsAtATime(): void
    {
        JournalWriter::open($this->temp->path, false, 0)->append(array_fill(0, 600, self::request('x')));

        [$first, $position] = $this->reader->read(new JournalPosition(0, 0));
        [$rest] = $this->reader->read($position);

        self::assertCount(512, $first);
        self::assertCount(88, $rest);
    }

    public function testBacklogCountsTheWholeRecordsAfterThePosition(): void
    {
        $ids = JournalWriter::open($this->temp->path, false, 0)->append([self::request('a'), self::request('b'), self::request('c')]);
        JournalWriter::open($this->temp->path, false, 0)->append([self::request('d')]);
        file_put_contents(Journal::segmentPath($this->temp->path, 2), 'torn', \FILE_APPEND);
        [$segment, $offset] = array_map('intval', explode('-', $ids[1]));

        self::assertSame(4, $this->reader->backlog(new JournalPosition(0, 0)));
        self::assertSame(3, $this->reader->backlog(new JournalPosition($segment, $offset)));
        self::assertSame(1, $this->reader->backlog(new JournalPosition(2, 0)));
    }

    public function testForgetDeletesOnlySegmentsBeforeThePosition(): void
    {
        foreach ([1, 2, 3] as $segment) {
            touch(Journal::segmentPath($this->temp->path, $segment));
        }

        $this->reader->forget(new JournalPosition(3, 0));

        self::assertSame([3], Journal::segments($this->temp->path));
    }

    /**
     * @param list<SpooledRequest> $requests
     *
     * @return list<string>
     */
    private static function bodies(array $requests): array
    {
        return array_map(static fn(SpooledRequest $r): string => $r->body, $requests);
    }

    private static function request(string $body): SpooledRequest
    {
        return new SpooledRequest(0, 'POST', 'https://a.example/', [], $body, 'key', 0, 1.0);
    }
}
