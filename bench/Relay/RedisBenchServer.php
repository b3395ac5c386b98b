<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use Symfony\Component\Process\Process;
use WarmHttp\Rig\FreePort;
use WarmHttp\Rig\TempDir;

/**
 * A private redis-server for the fleet rows: ephemeral loopback port, AOF with
 * appendfsync everysec (the documented default) in a temporary directory, never the system
 * service. Its CPU seconds and INFO commandstats give the Redis cost per delivery.
 *
 * @internal bench tooling
 */
final class RedisBenchServer
{
    private function __construct(private readonly TempDir $dir, private readonly Process $process, public readonly int $port) {}

    public function __destruct()
    {
        $this->process->stop(2, \SIGTERM);
        $this->dir->remove();
    }

    public static function missing(): ?string
    {
        if (!class_exists(\Redis::class)) {
            return 'the fleet rows need phpredis: apt-get install php8.2-redis';
        }

        return is_executable('/usr/bin/redis-server') ? null : 'the fleet rows need redis-server: apt-get install redis-server';
    }

    public static function start(): self
    {
        $dir = TempDir::create('bench-redis');
        $port = FreePort::pick();
        $process = new Process(['redis-server', '--port', (string) $port, '--bind', '127.0.0.1', '--dir', $dir->path(), '--appendonly', 'yes', '--appendfsync', 'everysec', '--save', '']);
        $process->setTimeout(null);
        $process->start();
        $server = new self($dir, $process, $port);
        $deadline = microtime(true) + 10;
        while (!$server->answers()) {
            if (!$process->isRunning() || microtime(true) > $deadline) {
                throw new \RuntimeException('redis-server did not start: ' . $process->getOutput());
            }
            usleep(10_000);
        }

        return $server;
    }

    public function url(): string
    {
        return \sprintf('redis://127.0.0.1:%d/0', $this->port);
    }

    public function cpuSeconds(): float
    {
        return array_sum(ProcessCpu::byProcess((int) $this->process->getPid()) ?? []);
    }

    /** Commands Redis has run since it started (INFO commandstats, every command's calls). */
    public function commands(): int
    {
        $redis = new \Redis();
        $redis->connect('127.0.0.1', $this->port, 1.0);
        $calls = 0;
        foreach ((array) $redis->info('commandstats') as $name => $line) {
            if (\is_string($name) && !str_contains($name, 'info') && \is_string($line) && preg_match('/calls=(\d+)/', $line, $m) === 1) {
                $calls += (int) $m[1];
            }
        }

        return $calls;
    }

    private function answers(): bool
    {
        try {
            $redis = new \Redis();

            return @$redis->connect('127.0.0.1', $this->port, 0.2) && (bool) $redis->ping();
        } catch (\RedisException) {
            return false;
        }
    }
}
