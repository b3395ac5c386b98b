<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Storage\Redis;

use WarmHttp\Relay\Storage\SpoolUnavailable;

/**
 * One phpredis connection to the fleet's Redis, opened on first use and again after a failure.
 * Every failure, a lost connection or an error reply, comes out as a SpoolUnavailable, which
 * the delivery worker already handles by backing off: nothing acknowledged is lost meanwhile
 * (it stays in the relay's local journal).
 *
 * phpredis (ext-redis, Debian php8.2-redis) rather than predis: on the relay's own commands
 * (XADD, XREADGROUP of 64, XACK and XDEL in a pipeline) phpredis ran 21,600 instructions per
 * request in the PHP process, predis 3.7 152,700 (callgrind, 2,000 requests each, one run).
 *
 * @internal
 */
final class RedisConnection
{
    private ?\Redis $redis = null;

    private int $opened = 0;

    /** @param \Closure(\Redis): void $onConnect run on each new connection (the consumer group) */
    public function __construct(private readonly RedisAddress $address, private readonly \Closure $onConnect) {}

    public static function available(): bool
    {
        return class_exists(\Redis::class);
    }

    /**
     * @template T
     *
     * @param \Closure(\Redis): T $work
     *
     * @return T
     *
     * @throws SpoolUnavailable
     */
    public function run(\Closure $work): mixed
    {
        try {
            return $work($this->redis ??= $this->connect());
        } catch (\RedisException $e) {
            $this->close();

            throw new SpoolUnavailable(\sprintf('Redis at %s failed: %s', $this->address->display(), $e->getMessage()), 0, $e);
        }
    }

    /**
     * How many connections this one has opened so far: a new one may reach another Redis (a
     * new master after a failover) that lacks this relay's last writes. phpredis's own silent
     * reconnect to the same address is not counted.
     */
    public function opened(): int
    {
        return $this->opened;
    }

    public function close(): void
    {
        try {
            $this->redis?->close();
        } catch (\RedisException) {
            // gone already
        }
        $this->redis = null;
    }

    /**
     * A Lua script by its SHA1, loaded on the first NOSCRIPT (a restarted Redis forgets them).
     *
     * @param list<string>           $keys
     * @param list<string|int|float> $args
     *
     * @throws \RedisException
     */
    public static function script(\Redis $redis, string $lua, array $keys, array $args): mixed
    {
        $redis->clearLastError();
        $result = $redis->evalSha(sha1($lua), [...$keys, ...$args], \count($keys));
        if ($result === false && str_contains((string) $redis->getLastError(), 'NOSCRIPT')) {
            $redis->clearLastError();
            $result = $redis->eval($lua, [...$keys, ...$args], \count($keys));
        }
        self::check($redis);

        return $result;
    }

    /**
     * MULTI ... EXEC sent as one pipeline: atomic in Redis, one round trip. phpredis's own MULTI
     * mode waits for each command's QUEUED: 76 µs per command against 1.4 µs pipelined (500
     * HSETs, 20 times, one run on this machine).
     *
     * @param \Closure(\Redis): void      $commands queues the transaction's commands on the pipeline it is given
     * @param \Closure(\Redis): void|null $before   queues commands to run before it, in the same round trip
     *
     * @return list<mixed> the replies of $before's commands
     *
     * @throws \RedisException the transaction was refused or aborted
     */
    public static function transaction(\Redis $redis, \Closure $commands, ?\Closure $before = null): array
    {
        $pipe = $redis->multi(\Redis::PIPELINE);
        $before === null ?: $before($pipe);
        $pipe->rawCommand('MULTI');
        $commands($pipe);
        $pipe->rawCommand('EXEC');
        try {
            $replies = $pipe->exec();
            $error = !\is_array($replies) || !\is_array(end($replies)) ? ((string) $redis->getLastError() ?: 'the transaction was aborted') : null;
        } catch (\RedisException $e) {
            [$replies, $error] = [[], $e->getMessage()];
        }
        if ($error !== null) {
            $redis->clearLastError();

            throw new \RedisException($error . self::whyAborted($redis, $error));
        }
        $multi = array_search(true, $replies, true); // MULTI's +OK: what came before it was $before's

        return \array_slice(array_values($replies), 0, \is_int($multi) ? $multi : 0);
    }

    /**
     * EXECABORT names no cause, and phpredis keeps only the last error of a pipeline: a Redis
     * at maxmemory refusing writes (OOM) is the cause an operator must be told, so it is asked.
     */
    private static function whyAborted(\Redis $redis, string $error): string
    {
        if (!str_contains($error, 'EXECABORT')) {
            return '';
        }
        try {
            $memory = $redis->info('memory');
        } catch (\RedisException) {
            return '';
        }
        $used = \is_array($memory) ? self::int($memory['used_memory'] ?? 0) : 0;
        $max = \is_array($memory) ? self::int($memory['maxmemory'] ?? 0) : 0;

        return $max > 0 && $used >= $max * 0.9
            ? \sprintf(' Redis is at its maxmemory (%d of %d bytes used) and refuses writes (OOM): raise maxmemory or free memory; the requests wait in this relay\'s journal meanwhile.', $used, $max)
            : '';
    }

    /** A reply that should be a number (phpredis gives strings from hashes and Lua). */
    public static function int(mixed $reply): int
    {
        return is_numeric($reply) ? (int) $reply : 0;
    }

    public static function text(mixed $reply): string
    {
        return \is_string($reply) || \is_int($reply) || \is_float($reply) ? (string) $reply : '';
    }

    /** @throws \RedisException the last command's error reply, if it had one */
    public static function check(\Redis $redis): void
    {
        $error = $redis->getLastError();
        if ($error !== null) {
            $redis->clearLastError();

            throw new \RedisException($error);
        }
    }

    /** @throws \RedisException */
    private function connect(): \Redis
    {
        $a = $this->address->sentinels === [] ? $this->address : $this->master();
        $redis = new \Redis();
        $context = $a->tls ? ['stream' => array_filter(['cafile' => $a->cafile, 'verify_peer' => $a->verify, 'verify_peer_name' => $a->verify], static fn($v): bool => $v !== null)] : [];
        if (!@$redis->connect(($a->tls ? 'tls://' : '') . $a->host, $a->port, $a->timeout, null, 0, $a->timeout, $context)) {
            throw new \RedisException(\sprintf('cannot connect to %s:%d', $a->host, $a->port));
        }
        if ($a->password !== null && !$redis->auth($a->user !== null ? [$a->user, $a->password] : $a->password)) {
            throw new \RedisException('authentication failed (the user and password in --spool)');
        }
        if ($a->database !== 0 && !$redis->select($a->database)) {
            throw new \RedisException(\sprintf('cannot select database %d', $a->database));
        }
        if ($this->address->sentinels !== [] && !self::isMaster($redis)) {
            // a Sentinel that has not seen the failover yet named the old master
            throw new \RedisException(\sprintf('%s:%d is not the master (yet); asking the Sentinels again', $a->host, $a->port));
        }
        ($this->onConnect)($redis);
        ++$this->opened;

        return $redis;
    }

    /** @throws \RedisException */
    private static function isMaster(\Redis $redis): bool
    {
        $role = $redis->rawCommand('ROLE');

        return \is_array($role) && ($role[0] ?? null) === 'master';
    }

    /**
     * The master's address, from the first Sentinel that answers: asked again on every new
     * connection, so after a failover the fleet follows the new master.
     *
     * @throws \RedisException no Sentinel named one
     */
    private function master(): RedisAddress
    {
        $errors = [];
        foreach ($this->address->sentinels as [$host, $port]) {
            try {
                $master = (new \RedisSentinel($host, $port, $this->address->timeout, null, 0, $this->address->timeout))->getMasterAddrByName((string) $this->address->service);
                if (\is_array($master) && isset($master[0], $master[1])) {
                    return $this->address->withMaster(self::text($master[0]), self::int($master[1]));
                }
                $errors[] = \sprintf('%s:%d does not know "%s"', $host, $port, $this->address->service);
            } catch (\RedisException $e) {
                $errors[] = \sprintf('%s:%d: %s', $host, $port, $e->getMessage());
            }
        }

        throw new \RedisException('no Sentinel named the master: ' . implode('; ', $errors));
    }
}
