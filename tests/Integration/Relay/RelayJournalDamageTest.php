<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Storage\Journal;
use WarmHttp\Relay\Storage\JournalRecord;

/**
 * Issue 13 item 8: one flipped byte in a journal record used to drop it and every later record
 * of its segment (200 of 300), with nothing logged, and the segment was deleted.
 */
final class RelayJournalDamageTest extends TestCase
{
    public function testAFlippedByteOnDiskLosesOneRecordWhichIsLoggedAndQuarantined(): void
    {
        $origin = RelayStorageOrigin::start();
        $relay = RelayProcess::start(['--allow-private-networks']);
        $worker = $relay->workerPid();
        posix_kill($worker, \SIGSTOP); // the journal keeps what the front acknowledges
        for ($i = 0; $i < 300; ++$i) {
            self::assertStringStartsWith('HTTP/1.1 202 ', $relay->raw(\sprintf("POST %s HTTP/1.1\r\nContent-Length: 9\r\n\r\nbody %04d", $origin->url("/journal?id=$i"), $i)));
        }
        posix_kill($worker, \SIGKILL);
        $relay->kill();
        $segment = self::flipAByteInRecord(Journal::dirFor($relay->spoolPath()), 150);

        $relay->launch();
        $delivered = $origin->awaitDelivered(299, 30.0);
        usleep(300_000); // nothing more arrives

        self::assertCount(299, $origin->awaitDelivered(300, 0.0), 'relay log: ' . $relay->log());
        self::assertNotContains('/journal?id=150', $delivered);
        self::assertStringContainsString('A journal record is damaged on disk; skipped to the next intact record', $relay->log());
        self::assertFileExists(Journal::quarantineDir(Journal::dirFor($relay->spoolPath())) . '/' . basename($segment));
        $relay->remove();
    }


    /** Flips one bit in the payload of the record number $n of the first segment. */
    private static function flipAByteInRecord(string $journal, int $n): string
    {
        $segments = Journal::segments($journal);
        $path = Journal::segmentPath($journal, $segments[0]);
        $bytes = (string) file_get_contents($path);
        $at = 0;
        for ($i = 0; $i < $n; ++$i) {
            $at += JournalRecord::check($bytes, $at);
        }
        $target = $at + JournalRecord::HEADER_BYTES + 20;
        $bytes[$target] = \chr(\ord($bytes[$target]) ^ 0x04);
        file_put_contents($path, $bytes);

        return $path;
    }
}
