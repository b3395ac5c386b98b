<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use Symfony\Component\Process\Process;
use WarmHttp\Relay\Storage\Journal;
use WarmHttp\Rig\TempDir;

/**
 * Issue 13 item 10: a journal segment that could not be created at rotation (here: a disk out
 * of inodes) crashed the front (fwrite() on the closed segment). It now goes on in the current
 * segment and rotates once it can; nothing acknowledged is lost.
 */
final class RelayJournalRotationTest extends TestCase
{
    public function testAFailedRotationKeepsTheFrontRunningAndLosesNothing(): void
    {
        $mount = TempDir::create('relay-inodes');
        $mounted = new Process(['mount', '-t', 'tmpfs', '-o', 'size=64m,nr_inodes=64', 'tmpfs', $mount->path()]);
        $mounted->run();
        if (!$mounted->isSuccessful()) {
            $mount->remove();
            self::markTestSkipped('Needs root to mount a small tmpfs: ' . trim($mounted->getErrorOutput()));
        }
        try {
            $this->rotateWithoutInodes($mount->path());
        } finally {
            (new Process(['umount', '-l', $mount->path()]))->run();
            $mount->remove();
        }
    }

    private function rotateWithoutInodes(string $disk): void
    {
        $origin = RelayStorageOrigin::start();
        $relay = RelayProcess::start(['--allow-private-networks', '--spool-reserve=0'], $disk . '/spool.sqlite');
        $worker = self::workerOf($relay);
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

    private static function workerOf(RelayProcess $relay): int
    {
        $deadline = microtime(true) + 10;
        do {
            $children = new Process(['pgrep', '-P', (string) $relay->pid()]);
            $children->run();
            $pid = (int) trim($children->getOutput());
            if ($pid > 0 && is_file($relay->spoolPath() . '.metrics.json')) {
                return $pid;
            }
            usleep(20_000);
        } while (microtime(true) < $deadline);

        self::fail('The relay started no delivery worker');
    }
}
