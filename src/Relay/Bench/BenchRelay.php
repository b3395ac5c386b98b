<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Bench;

use Symfony\Component\Process\Process;
use WarmHttp\Rig\TempDir;

/**
 * A relay process for the benchmark rows: private socket and spool, stopped with the object.
 *
 * @internal benchmark tooling
 */
final class BenchRelay
{
    private function __construct(private readonly TempDir $dir, private readonly Process $process) {}

    public function __destruct()
    {
        $this->process->stop(5, \SIGTERM);
        @unlink($this->socketPath());
        $this->dir->remove();
    }

    /** @param list<string> $options */
    public static function start(array $options, ?TempDir $dir = null): self
    {
        $dir ??= TempDir::create('bench-relay');
        $process = new Process([\PHP_BINARY, \dirname(__DIR__, 3) . '/bin/warmhttp', 'relay', '--socket=' . $dir->path('relay.sock'), '--spool=' . $dir->path('spool.sqlite'), ...$options]);
        $process->setTimeout(null);
        $process->start();
        $relay = new self($dir, $process);
        $deadline = microtime(true) + 10;
        while (($probe = @stream_socket_client('unix://' . $relay->socketPath(), $errno, $errstr, 0.2)) === false) {
            if (!$process->isRunning() || microtime(true) > $deadline) {
                throw new \RuntimeException('The relay did not start: ' . $process->getErrorOutput());
            }
            usleep(10_000);
        }
        fclose($probe);

        return $relay;
    }

    public static function spoolIn(TempDir $dir): string
    {
        return $dir->path('spool.sqlite');
    }

    public function socketPath(): string
    {
        return $this->dir->path('relay.sock');
    }

    public function address(): string
    {
        return 'unix://' . $this->socketPath();
    }

    public function metric(string $name): float
    {
        $socket = @stream_socket_client($this->address(), $errno, $errstr, 1.0);
        if ($socket === false) {
            return 0.0;
        }
        fwrite($socket, "GET /metrics HTTP/1.1\r\nConnection: close\r\n\r\n");
        $text = (string) stream_get_contents($socket);
        fclose($socket);

        return preg_match('/^warmhttp_relay_' . preg_quote($name, '/') . ' ([\d.]+)/m', $text, $m) === 1 ? (float) $m[1] : 0.0;
    }
}
