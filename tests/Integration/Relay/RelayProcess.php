<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use Symfony\Component\Process\Process;
use WarmHttp\Relay\Console\RelayLocation;
use WarmHttp\Rig\TempDir;

/**
 * `bin/warmhttp relay` as a real process on a private socket and spool, for tests: given as
 * --socket and --spool, or (startFromEnvironment) through the environment variables that
 * `relay` and the relay:* commands all read, so the commands run with no path options at all.
 */
final class RelayProcess
{
    private ?Process $process = null;

    /** @param list<string> $options */
    private function __construct(private readonly TempDir $dir, private readonly array $options, private readonly string $spool, private readonly bool $fromEnvironment = false) {}

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

    /**
     * `relay` with no --socket or --spool: WARMHTTP_RELAY_SOCKET and WARMHTTP_RELAY_SPOOL name
     * the private ones, and command() gives the relay:* commands the same environment.
     *
     * @param list<string> $options extra `relay` options
     */
    public static function startFromEnvironment(array $options = []): self
    {
        $dir = TempDir::create('relay');
        $relay = new self($dir, $options, $dir->path('spool.sqlite'), true);
        $relay->launch();

        return $relay;
    }

    /**
     * The environment every process of this relay runs with: its paths when started from the
     * environment, none otherwise (so a variable set around the test run cannot redirect it).
     *
     * @return array<string, string|false>
     */
    public function environment(): array
    {
        return $this->fromEnvironment
            ? [RelayLocation::SOCKET_ENV => $this->socketPath(), RelayLocation::SPOOL_ENV => $this->spool]
            : [RelayLocation::SOCKET_ENV => false, RelayLocation::SPOOL_ENV => false];
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
        $paths = $this->fromEnvironment ? [] : ['--socket=' . $this->socketPath(), '--spool=' . $this->spool];
        $this->process = new Process([\PHP_BINARY, self::bin(), 'relay', ...$paths, ...$this->options], null, $this->environment());
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

    /**
     * A relay:* command on this relay's spool (by --spool, or by the environment only), which
     * must exit 0.
     *
     * @param list<string> $args
     */
    public function command(string $name, array $args = []): Process
    {
        return $this->process($name, $args)->mustRun();
    }

    /**
     * The same, whatever its exit code: for the error paths.
     *
     * @param list<string> $args
     */
    public function run(string $name, array $args = []): Process
    {
        $process = $this->process($name, $args);
        $process->run();

        return $process;
    }

    /** @param list<string> $args */
    private function process(string $name, array $args): Process
    {
        $spool = $this->fromEnvironment ? [] : ['--spool=' . $this->spool];

        return new Process([\PHP_BINARY, self::bin(), $name, ...$spool, ...$args], null, $this->environment());
    }

    public static function bin(): string
    {
        return \dirname(__DIR__, 3) . '/bin/warmhttp';
    }

    /**
     * The dead letters, once there are any (relay:failed --format=json), or [] after 15 s.
     *
     * @return list<array{id: int, method: string, uri: string, attempts: int, failed_at: float, last_error: string}>
     */
    public function awaitDeadLetters(): array
    {
        $deadline = microtime(true) + 15;
        do {
            /** @var list<array{id: int, method: string, uri: string, attempts: int, failed_at: float, last_error: string}> $dead */
            $dead = json_decode($this->command('relay:failed', ['--format=json'])->getOutput(), true);
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

    /** The delivery worker the front started, once it runs (it writes the metrics file first). */
    public function workerPid(): int
    {
        $deadline = microtime(true) + 10;
        do {
            $children = new Process(['pgrep', '-P', (string) $this->pid()]);
            $children->run();
            $pid = (int) trim($children->getOutput());
            if ($pid > 0 && is_file($this->spoolPath() . '.metrics.json')) {
                return $pid;
            }
            usleep(20_000);
        } while (microtime(true) < $deadline);

        throw new \RuntimeException('The relay started no delivery worker; its log: ' . $this->log());
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

    /**
     * Started once every socket it was given accepts: the front binds its unix socket before its
     * --tcp one, so a unix socket that accepts said nothing yet of the TCP port (a test that
     * went on at once was refused on TCP, once).
     */
    private function accepts(): bool
    {
        $addresses = [$this->address()];
        foreach ($this->options as $option) {
            if (str_starts_with($option, '--tcp=')) {
                $addresses[] = 'tcp://' . substr($option, 6);
            }
        }
        foreach ($addresses as $address) {
            $socket = @stream_socket_client($address, $errno, $errstr, 0.2);
            if ($socket === false) {
                return false;
            }
            fclose($socket);
        }

        return true;
    }
}
