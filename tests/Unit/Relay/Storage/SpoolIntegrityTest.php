<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Storage;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Storage\JournalPosition;
use WarmHttp\Relay\Storage\Spool;
use WarmHttp\Relay\Storage\SpooledRequest;
use WarmHttp\Relay\Storage\SpoolIntegrity;
use WarmHttp\Relay\Storage\SpoolReader;
use WarmHttp\Tests\Integration\Relay\MemoryLogger;
use WarmHttp\Tests\Unit\Support\TempDirectory;

final class SpoolIntegrityTest extends TestCase
{
    private TempDirectory $temp;

    private string $path;

    protected function setUp(): void
    {
        $this->temp = new TempDirectory();
        $this->path = $this->temp->path . '/spool.sqlite';
    }

    protected function tearDown(): void
    {
        $this->temp->remove();
    }

    public function testASoundSpoolIsLeftAlone(): void
    {
        Spool::open($this->path, false)->commit([self::request('a')]);
        $logger = new MemoryLogger();

        SpoolIntegrity::ensure($this->path, false, $logger);

        self::assertSame([], $logger->records);
        self::assertSame([], glob($this->path . '.damaged-*'));
    }

    public function testAFileThatIsNotADatabaseIsMovedAsideAndAFreshSpoolStarted(): void
    {
        file_put_contents($this->path, str_repeat("\x5A", 8192));
        $logger = new MemoryLogger();

        SpoolIntegrity::ensure($this->path, false, $logger);

        self::assertCount(1, glob($this->path . '.damaged-*') ?: []);
        self::assertSame(0, SpoolReader::open($this->path)->counts(static fn(int $taken): int => 0)['pending']);
        $logged = $logger->contexts('The spool was damaged');
        self::assertCount(1, $logged);
        self::assertSame(['counters' => 0, 'pending' => 0, 'dead' => 0], $logged[0]['rows_kept']);
    }

    public function testDamagedPagesCostTheirRowsOnlyAndTheJournalPositionIsKept(): void
    {
        $spool = Spool::open($this->path, false);
        $spool->commit(array_map(static fn(int $i): SpooledRequest => self::request(str_repeat((string) $i, 4000)), range(0, 9)), null, new JournalPosition(7, 99));
        unset($spool); // the last connection checkpoints the WAL into the file
        $file = fopen($this->path, 'r+');
        \assert($file !== false);
        fseek($file, (int) filesize($this->path) - 4096); // an overflow page of the last row's body
        fwrite($file, str_repeat("\xA5", 4096));
        fclose($file);
        $logger = new MemoryLogger();

        SpoolIntegrity::ensure($this->path, false, $logger);

        $kept = $logger->contexts('The spool was damaged')[0]['rows_kept'] ?? [];
        self::assertIsArray($kept);
        self::assertSame(9, $kept['pending'] ?? 0);
        self::assertEquals(new JournalPosition(7, 99), Spool::open($this->path, false)->journalPosition());
    }

    private static function request(string $body): SpooledRequest
    {
        return new SpooledRequest(0, 'POST', 'https://a.example/', [['X-Sig', "\xFF"]], $body, 'k', 0, 1.0);
    }
}
