<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use Symfony\Component\Process\ExecutableFinder;
use Symfony\Component\Process\Process;
use WarmHttp\Rig\TempDir;

/**
 * A relay process for the benchmark rows (`bin/warmhttp relay`, the command users run):
 * private socket and spool, stopped with the object.
 *
 * @internal benchmark tooling
 */
final class BenchRelay
{
    private function __construct(private readonly TempDir $dir, private readonly Process $process, public readonly ?int $pinnedCpu) {}

    public function __destruct()
    {
        $this->stop();
    }

    /**
     * @param list<string> $options relay options besides --socket and --spool
     * @param bool         $oneCore run both relay processes on one CPU (taskset), the last one,
     *                              when the machine has more than one and taskset is there
     */
    public static function start(array $options, bool $oneCore = false): self
    {
        $dir = TempDir::create('bench-relay');
        $cpu = $oneCore ? self::lastCpu() : null;
        $process = new Process([...($cpu === null ? [] : ['taskset', '-c', (string) $cpu]), \PHP_BINARY, \dirname(__DIR__, 2) . '/bin/warmhttp', 'relay', '--socket=' . $dir->path('relay.sock'), '--spool=' . $dir->path('spool.sqlite'), ...$options]);
        $process->setTimeout(null);
        $process->start();
        $relay = new self($dir, $process, $cpu);
        $deadline = microtime(true) + 10;
        while (($probe = @stream_socket_client('unix://' . $relay->socketPath(), $errno, $errstr, 0.2)) === false) {
            if (!$process->isRunning() || microtime(true) > $deadline) {
                throw new \RuntimeException(\sprintf('The relay (bin/warmhttp relay %s) did not start: %s', implode(' ', $options), trim($process->getErrorOutput()) ?: 'no output'));
            }
            usleep(10_000);
        }
        fclose($probe);

        return $relay;
    }

    /** The highest-numbered CPU this process may use; null with one CPU or without taskset. */
    private static function lastCpu(): ?int
    {
        if ((new ExecutableFinder())->find('taskset') === null) {
            return null;
        }
        $cpus = (int) shell_exec('nproc 2>/dev/null');

        return $cpus >= 2 ? $cpus - 1 : null;
    }

    public function socketPath(): string
    {
        return $this->dir->path('relay.sock');
    }

    public function address(): string
    {
        return 'unix://' . $this->socketPath();
    }

    /**
     * CPU seconds each relay process (the front, and its delivery process) has used so far.
     *
     * @return array<int, float>|null pid => seconds; null off Linux
     */
    public function cpuSeconds(): ?array
    {
        $pid = $this->process->getPid();

        return $pid === null ? null : ProcessCpu::byProcess($pid);
    }

    public function errorOutput(): string
    {
        return $this->process->getErrorOutput();
    }

    /**
     * SIGTERM makes the relay drain its in-flight deliveries; a bench that is done with it
     * gives it $graceSeconds, then kills it.
     */
    public function stop(float $graceSeconds = 2.0): void
    {
        if ($this->process->isRunning()) {
            $this->process->stop($graceSeconds, \SIGTERM);
        }
        @unlink($this->socketPath()); // TempDir::remove() takes a socket for a directory
        $this->dir->remove();
    }
}
