<?php

declare(strict_types=1);

namespace WarmHttp\Rig;

use Symfony\Component\Process\Process;

/**
 * A rig/bin/rig-*.php server run as a separate PHP process: waits for the port it publishes,
 * reads its stats file, and kills it on stop.
 *
 * @internal test/bench tooling
 */
final class ChildProcess
{
    private ?Process $process;
    private int $port = 0;

    private function __construct(private readonly TempDir $dir, Process $process)
    {
        $this->process = $process;
    }

    public function __destruct()
    {
        $this->stop();
    }

    /**
     * @param list<string> $args
     */
    public static function start(string $script, array $args, string $what): self
    {
        $dir = TempDir::create(basename($script, '.php'));
        $process = new Process([\PHP_BINARY, '-d', 'memory_limit=512M', __DIR__ . '/bin/' . $script, $dir->path(), ...$args]);
        $process->setTimeout(null);
        $process->start();
        $child = new self($dir, $process);
        $child->awaitPort($what);

        return $child;
    }

    public function port(): int
    {
        return $this->port;
    }

    /**
     * @return array<string, mixed>
     */
    public function stats(): array
    {
        return StatsFile::read($this->dir->path('stats.json'));
    }

    public function signal(int $signal): void
    {
        $this->process?->signal($signal);
    }

    public function stop(): void
    {
        if ($this->process === null) {
            return;
        }
        $this->process->stop(2, \SIGTERM);
        $this->process = null;
        $this->dir->remove();
    }

    private function awaitPort(string $what): void
    {
        \assert($this->process !== null);
        try {
            PortProbe::waitForFiles($this->process, [$this->dir->path('port'), $this->dir->path('stats.json')], $what);
        } catch (RigException $e) {
            $this->stop();

            throw $e;
        }
        $this->port = (int) file_get_contents($this->dir->path('port'));
    }
}
