<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Storage\Journal;

/**
 * Issue 13 item 10: a journal segment that could not be created at rotation (here: a disk out
 * of inodes) crashed the front (fwrite() on the closed segment). It now goes on in the current
 * segment and rotates once it can; nothing acknowledged is lost.
 */
final class RelayJournalRotationTest extends TestCase
{
    public function testAFailedRotationKeepsTheFrontRunningAndLosesNothing(): void
    {
        SmallDisk::with('size=64m,nr_inodes=64', fn(string $disk) => $this->rotateWithoutInodes($disk));
    }

    private function rotateWithoutInodes(string $disk): void
    {
        $origin = RelayStorageOrigin::start();
        $relay = RelayProcess::start(['--allow-private-networks', '--spool-reserve=0'], $disk . '/spool.sqlite');
        $worker = $relay->workerPid();
        posix_kill($worker, \SIGSTOP); // segments stay, so the next one needs a new inode
        for ($n = 0; @touch("$disk/filler-$n"); ++$n) {
        }
        $body = str_repeat('r', 1024);
        for ($i = 0; $i < 400; ++$i) {
            $answer = $relay->raw(\sprintf("POST %s HTTP/1.1\r\nContent-Length: %d\r\n\r\n%s", $origin->url("/rotate?id=$i"), \strlen($body), $body));
            self::assertStringStartsWith('HTTP/1.1 202 ', $answer, "dispatch $i, past a rotation that cannot happen; relay log: " . $relay->log());
        }
        self::assertStringStartsWith('HTTP/1.1 200 ', $relay->raw("GET /healthz HTTP/1.1\r\n\r\n"), 'the front runs');
        $journal = Journal::dirFor($relay->spoolPath());
        $segments = Journal::segments($journal);
        self::assertCount(1, $segments, 'no new segment could be created');
        self::assertGreaterThan(262144, filesize(Journal::segmentPath($journal, $segments[0])), 'the rotation was due and failed');

        for ($k = 0; $k < $n; ++$k) {
            unlink("$disk/filler-$k");
        }
        posix_kill($worker, \SIGCONT);
        self::assertCount(400, $origin->awaitDelivered(400, 30.0), 'relay log: ' . $relay->log());
        $relay->remove();
    }

}
