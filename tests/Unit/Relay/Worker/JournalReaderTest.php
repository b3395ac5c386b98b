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
use WarmHttp\Tests\Integration\Relay\MemoryLogger;
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

    public function testBytesAfterAPositionAreTheJournalNotYetTakenInWithoutReadingIt(): void
    {
        $ids = JournalWriter::open($this->temp->path, false, 0)->append([self::request('a'), self::request('b')]);
        $size = (int) filesize(Journal::segmentPath($this->temp->path, 1));
        [$segment, $offset] = array_map('intval', explode('-', $ids[1]));

        self::assertSame($size, $this->reader->bytesAfter(new JournalPosition(0, 0)));
        self::assertSame($size - $offset, $this->reader->bytesAfter(new JournalPosition($segment, $offset)));
        self::assertSame(0, $this->reader->bytesAfter(new JournalPosition(1, $size)));
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

    public function testAFlippedByteLosesOneRecordNotTheRestOfTheSegmentAndIsLoggedAndQuarantined(): void
    {
        $logger = new MemoryLogger();
        $reader = new JournalReader($this->temp->path, $logger);
        $records = array_map(static fn(int $i): string => JournalRecord::encode(self::request("body $i")), range(0, 9));
        $bytes = implode('', $records);
        $damagedAt = \strlen($records[0]) * 4 + 20; // inside the fifth record's payload
        $bytes[$damagedAt] = \chr(\ord($bytes[$damagedAt]) ^ 0x01);
        file_put_contents(Journal::segmentPath($this->temp->path, 1), $bytes);
        file_put_contents(Journal::segmentPath($this->temp->path, 2), '');

        [$requests] = $reader->read(new JournalPosition(0, 0));

        self::assertSame(['body 0', 'body 1', 'body 2', 'body 3', 'body 5', 'body 6', 'body 7', 'body 8', 'body 9'], self::bodies($requests));
        $logged = $logger->contexts('A journal record is damaged on disk; skipped to the next intact record');
        self::assertCount(1, $logged);
        self::assertSame(\strlen($records[0]) * 4, $logged[0]['offset']);
        self::assertSame(\strlen($records[0]), $logged[0]['skipped_bytes']);
        self::assertFileEquals(Journal::segmentPath($this->temp->path, 1), Journal::quarantineDir($this->temp->path) . '/0000000001.log');
        self::assertSame(9, $this->reader->backlog(new JournalPosition(0, 0)));
    }

    public function testADamagedHeaderResynchronisesOnTheNextMarker(): void
    {
        $records = array_map(static fn(int $i): string => JournalRecord::encode(self::request("body $i")), range(0, 2));
        $bytes = implode('', $records);
        $length = \strlen($records[0]) + 5; // the second record's length field
        $bytes[$length] = \chr(\ord($bytes[$length]) ^ 0x40);
        file_put_contents(Journal::segmentPath($this->temp->path, 1), $bytes);

        self::assertSame(['body 0', 'body 2'], self::bodies($this->reader->read(new JournalPosition(0, 0))[0]));
    }

    public function testARecordForgedInsideABodyIsNeverReadAsARecord(): void
    {
        $forged = JournalRecord::encode(new SpooledRequest(0, 'POST', 'http://169.254.169.254/', [], 'forged', 'k', 0, 1.0));
        $carrier = JournalRecord::encode(self::request('x' . $forged));
        $carrier[JournalRecord::HEADER_BYTES + 2] = 'Z'; // damage in the carrier's payload, before the forged record
        file_put_contents(Journal::segmentPath($this->temp->path, 1), $carrier . JournalRecord::encode(self::request('after')));
        file_put_contents(Journal::segmentPath($this->temp->path, 2), '');

        self::assertSame(['after'], self::bodies($this->reader->read(new JournalPosition(0, 0))[0]));
    }

    public function testWaitsAtDamageAtTheEndOfTheNewestSegmentUntilSomethingFollows(): void
    {
        $first = JournalRecord::encode(self::request('a'));
        $damaged = JournalRecord::encode(self::request('b'));
        $damaged[6] = \chr(\ord($damaged[6]) ^ 0x10); // its header
        file_put_contents(Journal::segmentPath($this->temp->path, 1), $first . $damaged);

        self::assertEquals([[self::request('a')], new JournalPosition(1, \strlen($first))], $this->reader->read(new JournalPosition(0, 0)));

        file_put_contents(Journal::segmentPath($this->temp->path, 1), JournalRecord::encode(self::request('c')), \FILE_APPEND);
        self::assertSame(['c'], self::bodies($this->reader->read(new JournalPosition(1, \strlen($first)))[0]));
    }

    public function testReadsAtMostTheGivenBytesButAlwaysOneRecord(): void
    {
        $record = JournalRecord::encode(self::request(str_repeat('x', 1000)));
        JournalWriter::open($this->temp->path, false, 0)->append(array_fill(0, 10, self::request(str_repeat('x', 1000))));

        self::assertCount(3, $this->reader->read(new JournalPosition(0, 0), 3 * \strlen($record))[0]);
        self::assertCount(1, $this->reader->read(new JournalPosition(0, 0), 1)[0]);
    }

    public function testReadsSegmentsWrittenBeforeTheRecordMarker(): void
    {
        $payload = json_encode(['POST', 'https://a.example/', [['X-A', '1']], base64_encode('old'), 'key', 1.5], \JSON_THROW_ON_ERROR);
        file_put_contents(Journal::segmentPath($this->temp->path, 1), pack('NN', \strlen($payload), crc32($payload)) . $payload);
        JournalWriter::open($this->temp->path, false, 0)->append([self::request('new')]);

        [$requests] = $this->reader->read(new JournalPosition(0, 0));

        self::assertSame(['old', 'new'], self::bodies($requests));
        self::assertSame([['X-A', '1']], $requests[0]->headers);
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
