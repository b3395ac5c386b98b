<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Storage;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Front\JournalWriter;
use WarmHttp\Relay\Storage\Journal;
use WarmHttp\Relay\Storage\JournalPosition;
use WarmHttp\Relay\Storage\Spool;
use WarmHttp\Relay\Storage\SpooledRequest;
use WarmHttp\Relay\Storage\SpoolReader;
use WarmHttp\Relay\Storage\SpoolUnavailable;
use WarmHttp\Relay\Worker\JournalReader;
use WarmHttp\Tests\Unit\Support\TempDirectory;

final class SpoolReaderTest extends TestCase
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

    public function testOpenNamesTheOptionWhenThereIsNoSpool(): void
    {
        $this->expectException(SpoolUnavailable::class);
        $this->expectExceptionMessage('--spool=PATH');

        SpoolReader::open($this->temp->path . '/missing.sqlite');
    }

    public function testAFreshSpoolCountsNothing(): void
    {
        $path = $this->temp->path . '/relay.sqlite';
        Spool::open($path, false);

        self::assertSame(
            ['pending' => 0, 'retrying' => 0, 'dead' => 0, 'delivered' => 0, 'dead_lettered' => 0, 'oldest_age_seconds' => 0.0],
            SpoolReader::open($path)->counts(),
        );
    }

    public function testCountsAcknowledgedRequestsStillInTheJournalAsPending(): void
    {
        $path = $this->temp->path . '/relay.sqlite';
        $spool = Spool::open($path, false);
        $spool->commit([self::request()]);
        JournalWriter::open(Journal::dirFor($path), false, 0)->append([self::request(), self::request()]);

        self::assertSame(3, SpoolReader::open($path)->counts()['pending']);

        [, $end] = (new JournalReader(Journal::dirFor($path)))->read(new JournalPosition(0, 0));
        $spool->commit([], null, $end);

        self::assertSame(1, SpoolReader::open($path)->counts()['pending']);
    }

    private static function request(): SpooledRequest
    {
        return new SpooledRequest(0, 'POST', 'https://a.example/', [], 'x', 'k', 0, microtime(true));
    }
}
