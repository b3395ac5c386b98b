<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use Symfony\Component\Process\Process;
use WarmHttp\Relay\Storage\Journal;

/**
 * Issue 13 item 6: a second relay started on a running relay's spool (an operator's double
 * start) used to open a journal segment of its own before failing on the socket; the running
 * relay then lost every request it acknowledged (500 of 500) and crashed on its next rotation.
 */
final class RelayStorageLockTest extends TestCase
{
    public function testASecondRelayOnTheSameSpoolFailsAndChangesNothing(): void
    {
        $origin = RelayStorageOrigin::start();
        $relay = RelayProcess::start(['--allow-private-networks']);
        self::awaitWorker($relay);
        $before = self::files($relay->dir());

        $second = new Process([\PHP_BINARY, RelayProcess::bin(), 'relay', '--socket=' . $relay->socketPath(), '--spool=' . $relay->spoolPath(), '--allow-private-networks'], null, $relay->environment());
        $second->setTimeout(20);
        $second->run();

        self::assertNotSame(0, $second->getExitCode(), 'the second relay must not run');
        self::assertStringContainsString(\sprintf('Another relay (pid %d) already uses the spool', $relay->pid()), $second->getErrorOutput());
        self::assertSame($before, self::files($relay->dir()), 'the second start changed nothing on disk');

        // 500 dispatches of 1 KiB: the journal rotates past 256 KiB twice on the way.
        $body = str_repeat('b', 1024);
        for ($i = 0; $i < 500; ++$i) {
            $answer = $relay->raw(\sprintf("POST %s HTTP/1.1\r\nContent-Length: %d\r\n\r\n%s", $origin->url("/lock?id=$i"), \strlen($body), $body));
            self::assertStringStartsWith('HTTP/1.1 202 ', $answer, "dispatch $i");
        }
        self::assertCount(500, $origin->awaitDelivered(500, 60.0), 'every acknowledged dispatch delivered; relay log: ' . $relay->log());
        self::assertStringStartsWith('HTTP/1.1 200 ', $relay->raw("GET /healthz HTTP/1.1\r\n\r\n"), 'the relay survived its rotations');
        self::assertGreaterThanOrEqual(3, max(Journal::segments(Journal::dirFor($relay->spoolPath())) ?: [0]), 'the journal rotated');
        $relay->remove();
    }

    /** The delivery worker has opened the spool once it publishes its metrics file. */
    private static function awaitWorker(RelayProcess $relay): void
    {
        $deadline = microtime(true) + 10;
        while (!is_file($relay->spoolPath() . '.metrics.json') && microtime(true) < $deadline) {
            usleep(20_000);
        }
        usleep(200_000);
    }

    /**
     * The relay's files, names and sizes, but for the metrics file the worker rewrites twice a
     * second.
     *
     * @return array<string, int>
     */
    private static function files(string $dir): array
    {
        $files = [];
        $iterator = new \RecursiveIteratorIterator(new \RecursiveDirectoryIterator($dir, \FilesystemIterator::SKIP_DOTS));
        foreach ($iterator as $file) {
            \assert($file instanceof \SplFileInfo);
            $path = $file->getPathname();
            if (!str_contains($path, '.metrics.json') && !$file->isDir()) {
                $files[substr($path, \strlen($dir))] = $file->getType() === 'socket' ? -1 : $file->getSize();
            }
        }
        ksort($files);

        return $files;
    }
}
