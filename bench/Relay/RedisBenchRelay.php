<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use Symfony\Component\Process\ExecutableFinder;
use Symfony\Component\Process\Process;
use WarmHttp\Rig\TempDir;

/**
 * A relay of a fleet for the bench: `--spool=redis://...`, its own socket and journal, pinned
 * to one CPU with taskset when asked (both its processes: the worker inherits the affinity).
 *
 * @internal bench tooling
 */
final class RedisBenchRelay
{
    private function __construct(private readonly TempDir $dir, private readonly Process $process, public readonly ?int $cpu) {}

    public function __destruct()
    {
        $this->stop();
    }

    public static function start(string $redisUrl, ?int $cpu): self
    {
        $dir = TempDir::create('bench-fleet');
        $cpu = $cpu !== null && (new ExecutableFinder())->find('taskset') !== null ? $cpu : null;
        $process = new Process([...($cpu === null ? [] : ['taskset', '-c', (string) $cpu]), \PHP_BINARY, \dirname(__DIR__, 2) . '/bin/warmhttp', 'relay', '--socket=' . $dir->path('relay.sock'), '--spool=' . $redisUrl, '--journal=' . $dir->path('relay'), '--allow-private-networks', '--max-per-host=256']);
        $process->setTimeout(null);
        $process->start();
        $relay = new self($dir, $process, $cpu);
        $deadline = microtime(true) + 10;
        while (($probe = @stream_socket_client($relay->address(), $errno, $errstr, 0.2)) === false || !is_file($dir->path('relay.metrics.json'))) {
            if (!$process->isRunning() || microtime(true) > $deadline) {
                throw new \RuntimeException('The fleet relay did not start: ' . trim($process->getErrorOutput()));
            }
            usleep(10_000);
        }
        fclose($probe);

        return $relay;
    }

    public static function cpus(): int
    {
        return max(1, (int) shell_exec('nproc 2>/dev/null'));
    }

    public function socketPath(): string
    {
        return $this->dir->path('relay.sock');
    }

    public function address(): string
    {
        return 'unix://' . $this->socketPath();
    }

    /** @return array<int, float> pid => CPU seconds (the front first, then its worker) */
    public function cpuSeconds(): array
    {
        return ProcessCpu::byProcess((int) $this->process->getPid()) ?? [];
    }

    /**
     * @param array<int, float> $before
     *
     * @return array{float, float} CPU seconds of the front and of its worker since $before
     */
    public function cpuDelta(array $before): array
    {
        $front = (int) $this->process->getPid();
        $after = $this->cpuSeconds();
        $frontSeconds = ($after[$front] ?? 0.0) - ($before[$front] ?? 0.0);
        $all = array_sum($after) - array_sum(array_intersect_key($before, $after));

        return [$frontSeconds, $all - $frontSeconds];
    }

    public function stop(): void
    {
        if ($this->process->isRunning()) {
            $this->process->stop(3, \SIGTERM);
        }
        @unlink($this->socketPath());
        $this->dir->remove();
    }
}
