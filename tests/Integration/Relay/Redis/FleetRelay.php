<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay\Redis;

use Symfony\Component\Process\Process;
use WarmHttp\Relay\Console\RelayLocation;
use WarmHttp\Rig\TempDir;
use WarmHttp\Tests\Integration\Relay\RelayProcess;

/**
 * One relay of a fleet: `bin/warmhttp relay --spool=redis://...` with its own socket and local
 * journal in a directory of its own, as a relay on another host would have.
 */
final class FleetRelay
{
    private ?Process $process = null;

    /**
     * @param list<string> $options
     * @param bool         $inEnvironment the address in $WARMHTTP_RELAY_SPOOL, not on the command line
     */
    private function __construct(private readonly TempDir $dir, private ?string $redisUrl, private readonly array $options, private readonly bool $inEnvironment = false) {}

    public function __destruct()
    {
        $this->kill();
        @unlink($this->socketPath());
        $this->dir->remove();
    }

    /** @param list<string> $options extra `relay` options */
    public static function start(string $redisUrl, array $options = [], bool $inEnvironment = false): self
    {
        $relay = new self(TempDir::create('fleet'), $redisUrl, $options, $inEnvironment);
        $relay->launch();

        return $relay;
    }

    public function address(): string
    {
        return 'unix://' . $this->socketPath();
    }

    public function socketPath(): string
    {
        return $this->dir->path('relay.sock');
    }

    public function journalBase(): string
    {
        return $this->dir->path('relay');
    }

    public function launch(): void
    {
        $environment = [RelayLocation::SOCKET_ENV => false, RelayLocation::SPOOL_ENV => $this->inEnvironment ? $this->redisUrl ?? false : false];
        $spool = match (true) {
            $this->redisUrl === null => ['--spool=' . $this->journalBase()], // SQLite, on the same journal
            $this->inEnvironment => ['--journal=' . $this->journalBase()],
            default => ['--spool=' . $this->redisUrl, '--journal=' . $this->journalBase()],
        };
        $this->process = new Process([\PHP_BINARY, RelayProcess::bin(), 'relay', '--socket=' . $this->socketPath(), ...$spool, ...$this->options], null, $environment);
        $this->process->setTimeout(null);
        $this->process->start();
        $deadline = microtime(true) + 10;
        while (($socket = @stream_socket_client($this->address(), $errno, $errstr, 0.2)) === false) {
            if (!$this->process->isRunning() || microtime(true) > $deadline) {
                throw new \RuntimeException('The relay did not start: ' . $this->process->getErrorOutput());
            }
            usleep(10_000);
        }
        fclose($socket);
    }

    /** The same relay (journal, socket) started again with another Redis address, or null: a SQLite spool beside the journal. */
    public function relaunchWith(?string $redisUrl): void
    {
        $this->terminate();
        $this->redisUrl = $redisUrl;
        $this->launch();
    }

    /** SIGKILL to the front and its delivery worker at once: a crashed host's relay. */
    public function kill(): void
    {
        if ($this->process === null || !$this->process->isRunning()) {
            return;
        }
        $worker = $this->workerPid();
        $this->process->signal(\SIGKILL);
        if ($worker > 0) {
            posix_kill($worker, \SIGKILL);
        }
        $this->process->wait();
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
     * GET /metrics, as name => value.
     *
     * @return array<string, float>
     */
    public function metrics(): array
    {
        $socket = stream_socket_client($this->address(), $errno, $errstr, 2);
        \assert($socket !== false);
        fwrite($socket, "GET /metrics HTTP/1.1\r\nHost: relay\r\nConnection: close\r\n\r\n");
        $answer = (string) stream_get_contents($socket);
        fclose($socket);
        preg_match_all('/^warmhttp_relay_(\w+) (\S+)$/m', $answer, $m, \PREG_SET_ORDER);

        return array_combine(array_column($m, 1), array_map('floatval', array_column($m, 2)));
    }

    /**
     * A relay:* command with only the Redis address, from no relay's directory: any host.
     *
     * @param list<string> $args
     */
    public static function command(string $redisUrl, string $name, array $args = []): Process
    {
        return (new Process([\PHP_BINARY, RelayProcess::bin(), $name, '--spool=' . $redisUrl, ...$args], null, [RelayLocation::SOCKET_ENV => false, RelayLocation::SPOOL_ENV => false]))->mustRun();
    }

    /** @return list<int> the front's pid and its worker's */
    public function pids(): array
    {
        return array_values(array_filter([(int) $this->process?->getPid(), $this->workerPid()]));
    }

    public function workerPid(): int
    {
        $children = new Process(['pgrep', '-P', (string) $this->process?->getPid()]);
        $children->run();

        return (int) trim($children->getOutput());
    }
}
