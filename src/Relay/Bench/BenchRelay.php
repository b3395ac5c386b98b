<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Bench;

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
    private function __construct(private readonly TempDir $dir, private readonly Process $process) {}

    public function __destruct()
    {
        $this->stop();
    }

    /** @param list<string> $options relay options besides --socket and --spool */
    public static function start(array $options): self
    {
        $dir = TempDir::create('bench-relay');
        $process = new Process([\PHP_BINARY, \dirname(__DIR__, 3) . '/bin/warmhttp', 'relay', '--socket=' . $dir->path('relay.sock'), '--spool=' . $dir->path('spool.sqlite'), ...$options]);
        $process->setTimeout(null);
        $process->start();
        $relay = new self($dir, $process);
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

        return null === $pid ? null : ProcessCpu::byProcess($pid);
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
