<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Client;

use Symfony\Component\Process\Process;
use WarmHttp\Rig\PortProbe;
use WarmHttp\Rig\TempDir;

/**
 * A loopback HTTP/1.x origin (wire-recorder.php, its own process) that keeps every request
 * exactly as the bytes arrived: what the client put on the wire, nothing parsed away. Its paths
 * also serve what nginx cannot: chunked answers with trailers, a refused head with an endless body.
 */
final class WireRecorder
{
    private function __construct(private readonly Process $process, private readonly TempDir $dir, private readonly int $port) {}

    public function __destruct()
    {
        $this->process->stop(0);
        $this->dir->remove();
    }

    public static function start(): self
    {
        $dir = TempDir::create('wire-recorder');
        $process = new Process([\PHP_BINARY, __DIR__ . '/wire-recorder.php', $dir->path()]);
        $process->setTimeout(null);
        $process->start();
        PortProbe::waitForFiles($process, [$dir->path('port')], 'The wire recorder (tests/Integration/Client/wire-recorder.php)');

        return new self($process, $dir, (int) file_get_contents($dir->path('port')));
    }

    public function url(string $path = '/'): string
    {
        return \sprintf('http://127.0.0.1:%d/%s', $this->port, ltrim($path, '/'));
    }

    public function authority(): string
    {
        return '127.0.0.1:' . $this->port;
    }

    /** Requests received so far. */
    public function count(): int
    {
        $n = 0;
        while (is_file($this->dir->path(\sprintf('request-%d.bin', $n + 1)))) {
            ++$n;
        }

        return $n;
    }

    /** The bytes of the latest request, waiting up to $seconds for one after the $after-th. */
    public function last(int $after = 0, float $seconds = 2.0): string
    {
        $deadline = microtime(true) + $seconds;
        while (($count = $this->count()) <= $after) {
            if (microtime(true) > $deadline) {
                throw new \RuntimeException(\sprintf('The wire recorder received no request after the %d-th within %.1f s.', $after, $seconds));
            }
            usleep(5_000);
        }

        return (string) file_get_contents($this->dir->path(\sprintf('request-%d.bin', $count)));
    }

    /** How many body bytes /bad-head-drip had sent when its client closed, or null while it is open. */
    public function dripClosedAfter(float $seconds): ?int
    {
        $deadline = microtime(true) + $seconds;
        do {
            if (is_file($this->dir->path('drip-closed'))) {
                return (int) file_get_contents($this->dir->path('drip-closed'));
            }
            usleep(10_000);
        } while (microtime(true) < $deadline);

        return null;
    }
}
