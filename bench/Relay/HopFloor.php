<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use WarmHttp\Rig\TempDir;

/**
 * The least a relay hop can cost on this machine, for the relay_sync first-call row: a minimal
 * PHP forwarder (hop-floor.php) on a unix socket, which waits in stream_select as the relay
 * front does and forwards each request with one kept, warmed curl handle. An FPM request writes
 * it the same bytes it writes the relay (fpm/first-call.php, mode hop-floor): what that costs
 * over a warm curl call is two more wake-ups and a unix round trip, nothing of the relay's.
 *
 * @internal benchmark tooling
 */
final class HopFloor
{
    /** @param resource $process */
    private function __construct(private readonly TempDir $dir, private $process, private readonly mixed $stdin) {}

    /** @param non-empty-string $caFile */
    public static function start(string $caFile): self
    {
        $dir = TempDir::create('hop-floor');
        // A process of its own, not a fork: a forked child would run the parent's destructors
        // (the shared rig's) on exit. It ends at EOF on its stdin, so it never outlives us.
        $process = proc_open([\PHP_BINARY, __DIR__ . '/hop-floor.php', $dir->path('hop.sock'), $caFile], [0 => ['pipe', 'r'], 2 => ['file', $dir->path('error.log'), 'a']], $pipes);
        if ($process === false) {
            $dir->remove();

            throw new \RuntimeException('Cannot start the hop floor\'s forwarder (bench/Relay/hop-floor.php).');
        }
        $floor = new self($dir, $process, $pipes[0]);
        $floor->awaitSocket();

        return $floor;
    }

    /** The stream_socket_client() address FPM workers write to. */
    public function address(): string
    {
        return 'unix://' . $this->dir->path('hop.sock');
    }

    public function stop(): void
    {
        if (\is_resource($this->stdin)) {
            fclose($this->stdin);
        }
        if (\is_resource($this->process)) {
            proc_terminate($this->process);
            proc_close($this->process);
        }
        @unlink($this->dir->path('hop.sock'));
        $this->dir->remove();
    }

    private function awaitSocket(): void
    {
        $deadline = microtime(true) + 10.0;
        while (!file_exists($this->dir->path('hop.sock'))) {
            if (!proc_get_status($this->process)['running'] || microtime(true) > $deadline) {
                $log = (string) @file_get_contents($this->dir->path('error.log'));
                $this->stop();

                throw new \RuntimeException('The hop floor\'s forwarder did not start: ' . $log);
            }
            usleep(10_000);
        }
    }
}
