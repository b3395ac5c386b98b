<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay\Redis;

use Symfony\Component\Process\Process;
use WarmHttp\Rig\FreePort;
use WarmHttp\Rig\TempDir;

/**
 * A private redis-server (Debian's) on an ephemeral loopback port, its AOF in a temporary
 * directory (appendonly yes, appendfsync everysec, no RDB snapshots): killed and restarted on
 * the same port and files by the tests. Never the system service.
 */
final class RedisServer
{
    private ?Process $process = null;

    /** @param list<string> $extra more redis-server arguments (a replica's --replicaof) */
    private function __construct(private readonly TempDir $dir, public readonly int $port, private readonly array $extra = []) {}

    public function __destruct()
    {
        $this->stop();
        $this->dir->remove();
    }

    /** @param list<string> $extra more redis-server arguments (--requirepass, --maxmemory) */
    public static function start(array $extra = []): self
    {
        $server = new self(TempDir::create('redis'), FreePort::pick(), $extra);
        $server->launch();

        return $server;
    }

    /** A replica of this one, with its own AOF. */
    public function replica(): self
    {
        $replica = new self(TempDir::create('redis'), FreePort::pick(), ['--replicaof', '127.0.0.1', (string) $this->port]);
        $replica->launch();

        return $replica;
    }

    /**
     * A Sentinel (redis-server --sentinel) watching this server as `$service`, quorum 1: it
     * declares the master down after 1 s and fails over to a replica. The replicas given are
     * known to it at once (it finds replicas by itself only with its INFO every 10 s).
     *
     * @param list<self> $replicas
     */
    public function sentinel(string $service, array $replicas = []): self
    {
        $dir = TempDir::create('sentinel');
        $port = FreePort::pick();
        file_put_contents($dir->path('sentinel.conf'), implode("\n", [
            'port ' . $port, 'bind 127.0.0.1', 'dir ' . $dir->path(),
            \sprintf('sentinel monitor %s 127.0.0.1 %d 1', $service, $this->port),
            \sprintf('sentinel down-after-milliseconds %s 1000', $service),
            \sprintf('sentinel failover-timeout %s 5000', $service),
            ...array_map(static fn(self $replica): string => \sprintf('sentinel known-replica %s 127.0.0.1 %d', $service, $replica->port), $replicas),
        ]) . "\n");
        $sentinel = new self($dir, $port, ['--sentinel']);
        $sentinel->launch();

        return $sentinel;
    }

    public static function installed(): bool
    {
        return is_executable('/usr/bin/redis-server') && class_exists(\Redis::class);
    }

    public function url(): string
    {
        return \sprintf('redis://127.0.0.1:%d/0', $this->port);
    }

    /** INFO replication's role and, for a replica, whether its link to the master is up. */
    public function role(): string
    {
        $info = $this->client()->info('replication');
        $role = \is_array($info) && \is_string($info['role'] ?? null) ? $info['role'] : '';
        $link = \is_array($info) && \is_string($info['master_link_status'] ?? null) ? ':' . $info['master_link_status'] : '';

        return $role . $link;
    }

    /** repl-diskless-sync-delay 0: a master waits 5 s by default before a replica's first sync (the Sentinel test waited for it). */
    public function launch(): void
    {
        $this->process = new Process(\in_array('--sentinel', $this->extra, true)
            ? ['redis-server', $this->dir->path('sentinel.conf'), '--sentinel']
            : ['redis-server', '--port', (string) $this->port, '--bind', '127.0.0.1', '--dir', $this->dir->path(), '--appendonly', 'yes', '--appendfsync', 'everysec', '--save', '', '--daemonize', 'no', '--protected-mode', 'yes', '--repl-diskless-sync-delay', '0', ...$this->extra]);
        $this->process->setTimeout(null);
        $this->process->start();
        $deadline = microtime(true) + 10;
        while (!$this->answers()) {
            if (!$this->process->isRunning() || microtime(true) > $deadline) {
                throw new \RuntimeException('redis-server did not start: ' . $this->process->getOutput() . $this->process->getErrorOutput());
            }
            usleep(10_000);
        }
    }

    public function kill(): void
    {
        $this->process?->signal(\SIGKILL);
        $this->process?->wait();
        $this->process = null;
    }

    public function stop(): void
    {
        if ($this->process !== null && $this->process->isRunning()) {
            $this->process->stop(5, \SIGTERM);
        }
        $this->process = null;
    }

    public function client(): \Redis
    {
        $redis = new \Redis();
        $redis->connect('127.0.0.1', $this->port, 1.0);
        $password = array_search('--requirepass', $this->extra, true);
        if (\is_int($password)) {
            $redis->auth($this->extra[$password + 1]);
        }

        return $redis;
    }

    /** @return array<string, string> `INFO commandstats`: command => its line */
    public function commandStats(): array
    {
        /** @var array<string, string> */
        return $this->client()->info('commandstats');
    }

    private function answers(): bool
    {
        try {
            return (bool) $this->client()->ping();
        } catch (\RedisException) {
            return false;
        }
    }
}
