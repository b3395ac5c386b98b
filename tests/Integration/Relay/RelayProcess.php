<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use Symfony\Component\Process\Process;
use WarmHttp\Rig\TempDir;

/**
 * `bin/warmhttp relay` as a real process on a private socket and spool, for tests.
 */
final class RelayProcess
{
    private ?Process $process = null;

    /** @param list<string> $options */
    private function __construct(private readonly TempDir $dir, private readonly array $options, private readonly string $spool) {}

    public function __destruct()
    {
        $this->remove();
    }

    /** @param list<string> $options extra `relay` options */
    public static function start(array $options = [], ?string $spool = null): self
    {
        $dir = TempDir::create('relay');
        $relay = new self($dir, $options, $spool ?? $dir->path('spool.sqlite'));
        $relay->launch();

        return $relay;
    }

    public function socketPath(): string
    {
        return $this->dir->path('relay.sock');
    }

    public function address(): string
    {
        return 'unix://' . $this->socketPath();
    }

    public function spoolPath(): string
    {
        return $this->spool;
    }

    public function dir(): string
    {
        return $this->dir->path();
    }

    public function launch(): void
    {
        $this->process = new Process([\PHP_BINARY, \dirname(__DIR__, 3) . '/bin/warmhttp', 'relay', '--socket=' . $this->socketPath(), '--spool=' . $this->spool, ...$this->options]);
        $this->process->setTimeout(null);
        $this->process->start();
        $deadline = microtime(true) + 10;
        while (!$this->accepts()) {
            if (!$this->process->isRunning() || microtime(true) > $deadline) {
                throw new \RuntimeException('The relay did not start: ' . $this->process->getErrorOutput());
            }
            usleep(10_000);
        }
    }

    public function kill(): void
    {
        $this->process?->signal(\SIGKILL);
        $this->process?->wait();
    }

    public function terminate(): int
    {
        $this->process?->signal(\SIGTERM);

        return (int) $this->process?->wait();
    }

    public function log(): string
    {
        return (string) $this->process?->getErrorOutput();
    }

    /** @param list<string> $args */
    public function command(string $name, array $args = []): Process
    {
        $process = new Process([\PHP_BINARY, \dirname(__DIR__, 3) . '/bin/warmhttp', $name, '--spool=' . $this->spool, ...$args]);
        $process->mustRun();

        return $process;
    }

    /**
     * The dead letters, once there are any (relay:failed --json), or [] after 15 s.
     *
     * @return list<array{id: int, attempts: int, failed_at: float, last_error: string}>
     */
    public function awaitDeadLetters(): array
    {
        $deadline = microtime(true) + 15;
        do {
            /** @var list<array{id: int, attempts: int, failed_at: float, last_error: string}> $dead */
            $dead = json_decode($this->command('relay:failed', ['--json'])->getOutput(), true);
            if ($dead !== []) {
                return $dead;
            }
            usleep(50_000);
        } while (microtime(true) < $deadline);

        return [];
    }

    /** The front process (the one the tests start; it starts the delivery worker). */
    public function pid(): int
    {
        return (int) $this->process?->getPid();
    }

    /** Raw bytes in, raw bytes out, on a fresh connection. */
    public function raw(string $bytes): string
    {
        $socket = stream_socket_client($this->address(), $errno, $errstr, 2);
        \assert($socket !== false);
        stream_set_timeout($socket, 5);
        fwrite($socket, $bytes);
        $answer = '';
        while (!str_contains($answer, "\r\n\r\n") || \strlen($answer) < strpos($answer, "\r\n\r\n") + 4 + self::length($answer)) {
            $chunk = fread($socket, 65536);
            if ($chunk === false || $chunk === '') {
                break;
            }
            $answer .= $chunk;
        }
        fclose($socket);

        return $answer;
    }

    public function stop(): void
    {
        if ($this->process !== null && $this->process->isRunning()) {
            $this->process->stop(5, \SIGTERM);
        }
        $this->process = null;
    }

    public function remove(): void
    {
        $this->stop();
        @unlink($this->socketPath()); // left by a SIGKILL; TempDir takes a socket for a directory
        $this->dir->remove();
    }

    private static function length(string $answer): int
    {
        return preg_match('/content-length:\s*(\d+)/i', $answer, $m) === 1 ? (int) $m[1] : 0;
    }

    private function accepts(): bool
    {
        $socket = @stream_socket_client($this->address(), $errno, $errstr, 0.2);
        if ($socket === false) {
            return false;
        }
        fclose($socket);

        return true;
    }
}
