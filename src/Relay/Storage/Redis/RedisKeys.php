<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Storage\Redis;

/**
 * The spool's keys in Redis, all under one prefix (`warmhttp:relay:` by default):
 *
 * - `stream`: a Redis Stream of request ids due now, read by the consumer group `delivery`;
 *   an entry is acknowledged (XACK) and deleted once its outcome is recorded
 * - `r:<id>`: a hash per request (method, uri, headers, body, Idempotency-Key, attempts,
 *   created at, last error, failed at); the id comes from `seq`
 * - `due`: a sorted set of retries by due time, moved into the stream when due by any relay
 * - `dead`: a sorted set of dead letters by id
 * - `lease:<origin>`: a sorted set of delivery leases by expiry, the cap per destination
 * - `journal`: each relay's position in its own local journal, committed with the requests
 * - `stats`: delivered and dead-lettered counters; `relays`: each relay's last report
 *
 * @internal
 */
final readonly class RedisKeys
{
    public const GROUP = 'delivery';

    public string $stream;

    public string $seq;

    public string $due;

    public string $dead;

    public string $journal;

    public string $stats;

    public string $relays;

    public function __construct(private string $prefix)
    {
        $this->stream = $prefix . 'stream';
        $this->seq = $prefix . 'seq';
        $this->due = $prefix . 'due';
        $this->dead = $prefix . 'dead';
        $this->journal = $prefix . 'journal';
        $this->stats = $prefix . 'stats';
        $this->relays = $prefix . 'relays';
    }

    public function request(int $id): string
    {
        return $this->prefix . 'r:' . $id;
    }

    public function lease(string $origin): string
    {
        return $this->prefix . 'lease:' . $origin;
    }

    /** Creates the consumer group (and the stream) unless it exists: on every new connection. */
    public function ensureGroup(\Redis $redis): void
    {
        $redis->rawCommand('XGROUP', 'CREATE', $this->stream, self::GROUP, '0', 'MKSTREAM');
        $error = (string) $redis->getLastError();
        $redis->clearLastError();
        if ($error !== '' && !str_contains($error, 'BUSYGROUP')) {
            throw new \RedisException($error);
        }
    }
}
