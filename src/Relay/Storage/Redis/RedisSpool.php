<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Storage\Redis;

use Psr\Log\LoggerInterface;
use Psr\Log\NullLogger;
use WarmHttp\Relay\Metrics;
use WarmHttp\Relay\Storage\JournalPosition;
use WarmHttp\Relay\Storage\RequestBytes;
use WarmHttp\Relay\Storage\SpooledRequest;
use WarmHttp\Relay\Storage\SpoolStore;
use WarmHttp\Relay\Storage\SpoolUnavailable;
use WarmHttp\Relay\Worker\Outcomes;

/**
 * A spool in Redis shared by every relay of a fleet (RedisKeys lists the keys). Each relay's
 * worker forwards its local journal into the stream (commit), takes due requests through the
 * consumer group (due), and acknowledges an entry only in the transaction that records its
 * outcome. Entries a dead worker held are claimed by the others once idle for `claimAfter`
 * (XAUTOCLAIM); a live worker keeps its own fresh (XCLAIM, JUSTID) while it holds them.
 *
 * @internal
 */
final class RedisSpool implements SpoolStore
{
    /** How often an idle worker looks at the stream: new requests of other relays, due retries. */
    private const LOOK_SECONDS = 0.02;

    /**
     * How often an idle worker makes sure Redis still has its journal position, besides on each
     * new connection: a Redis that restarted without its last writes behind phpredis's silent
     * reconnect, found within this long even when no new request comes to commit.
     */
    private const VERIFY_POSITION_SECONDS = 1.0;

    /** Segments stay this long after being forwarded: Redis with appendfsync everysec may lose ~1-2 s. */
    private const JOURNAL_GRACE_SECONDS = 10.0;

    /**
     * Leases asked for at once per destination: one script call for a round of starts instead
     * of one per delivery (the lease was 6 of the ~10 Redis commands per delivery). What a round
     * does not use is released at the end of the loop pass (heartbeat), or with a commit.
     */
    private const LEASE_BATCH = 8;

    /** @var array<int, string> request id => its stream entry, taken by this worker and not acknowledged */
    private array $entries = [];

    /** @var array<string, list<string>> origin => leases held */
    private array $leases = [];

    /** @var array<string, list<string>> origin => leases granted and not used yet, released with the next commit */
    private array $spare = [];

    /** @var array<string, list<string>> origin => leases to release with the next commit */
    private array $releases = [];

    private int $leaseSeq = 0;

    private float $heartbeatAt = 0.0;

    private float $claimedAt = 0.0;

    /** This relay's journal position as it last read or wrote it in Redis ("segment:offset"). */
    private ?string $position = null;

    /** The connection (RedisConnection::opened()) and the time the position was last found in Redis. */
    private int $verifiedOn = 0;

    private float $verifiedAt = 0.0;

    public readonly string $consumer;

    public function __construct(
        private readonly RedisConnection $connection,
        private readonly RedisKeys $keys,
        private readonly string $relayId,
        private readonly float $claimAfterSeconds,
        private readonly float $leaseSeconds,
        private readonly Metrics $metrics,
        private readonly int $maxBodyBytes = 10485760,
        private readonly LoggerInterface $logger = new NullLogger(),
    ) {
        $this->consumer = $relayId . ':' . getmypid();
    }

    public function commit(array $entries, ?Outcomes $outcomes = null, ?JournalPosition $taken = null, ?float $clock = null): array
    {
        $this->connection->run(function (\Redis $redis) use ($entries, $outcomes, $taken, $clock): void {
            $this->claimOwn($redis);
            $first = $entries === [] ? 0 : RedisConnection::int(RedisConnection::script($redis, RedisScripts::NEXT_IDS, [$this->keys->seq], [\count($entries)])) - \count($entries) + 1;
            $stored = RedisConnection::transaction($redis, function (\Redis $tx) use ($entries, $outcomes, $taken, $first, $clock): void {
                foreach ($entries as $i => $entry) {
                    $this->forward($tx, $first + $i, $entry);
                }
                if ($outcomes !== null && !$outcomes->isEmpty()) {
                    $this->record($tx, $outcomes, $clock ?? microtime(true));
                }
                foreach ($this->leasesToRelease() as $origin => $members) {
                    $tx->zRem($this->keys->lease($origin), ...$members);
                }
                if ($taken !== null) {
                    $tx->hSet($this->keys->journal, $this->relayId, $taken->segment . ':' . $taken->offset);
                }
            }, $taken === null ? null : function (\Redis $pipe): void {
                $pipe->hGet($this->keys->journal, $this->relayId);
            });
            if ($taken !== null) {
                $this->checkPosition($redis, $stored[0] ?? false);
            }
        });
        [$this->releases, $this->spare] = [[], []];
        if ($taken !== null) {
            $this->position = $taken->segment . ':' . $taken->offset;
        }
        $this->metrics->add('forwarded_total', \count($entries));
        foreach ($outcomes === null ? [] : [...$outcomes->delivered, ...array_keys($outcomes->retries), ...array_keys($outcomes->dead)] as $id) {
            unset($this->entries[$id]);
        }

        return []; // the fleet takes them through the consumer group
    }

    public function due(float $now, int $limit, array $skip, int $maxBytes = 32 * 1048576): array
    {
        return $this->connection->run(function (\Redis $redis) use ($now, $limit, $skip): array {
            $this->verifyPosition($redis);
            $this->claimOwn($redis);
            RedisConnection::script($redis, RedisScripts::PROMOTE, [$this->keys->due, $this->keys->stream], [$now, $limit]);

            return $this->load($redis, $this->claim($redis, $limit) + $this->read($redis, $limit), $skip);
        });
    }

    public function nextDueAfter(float $now): float
    {
        return $now + self::LOOK_SECONDS;
    }

    public function journalPosition(): JournalPosition
    {
        $at = $this->connection->run(fn(\Redis $redis): mixed => $redis->hGet($this->keys->journal, $this->relayId));
        $this->position = \is_string($at) ? $at : '0:0';
        [$segment, $offset] = explode(':', $this->position) + ['0', '0'];

        return new JournalPosition((int) $segment, (int) $offset);
    }

    /**
     * The position Redis had just before this commit (or found while idle: verifyPosition())
     * must be the one this worker last wrote: a
     * Redis restarted without its last writes, or a new master after a failover (the old one took
     * writes until it was demoted, and phpredis reconnects without a word), lost the requests
     * forwarded with it. Redis gets its old position back, and the worker reads it back after
     * this failure (DeliveryProcess) and forwards those requests again from the journal.
     *
     * @param mixed $before the position's HGET, in the same round trip just before the commit
     *
     * @throws \RedisException
     */
    private function checkPosition(\Redis $redis, mixed $before): void
    {
        $before = \is_string($before) ? $before : '0:0';
        if ($this->position === null || $before === $this->position) {
            return;
        }
        $redis->hSet($this->keys->journal, $this->relayId, $before);

        throw new \RedisException(\sprintf('Redis no longer had this relay\'s journal position %s (it had %s: a restart that lost writes, or a failover); forwarding again from the journal', $this->position, $before));
    }

    /**
     * What checkPosition() does in a commit, done while no commit comes: after a failover whose
     * last forwarded requests went to the old master (it took writes until it was demoted), an
     * idle relay would otherwise leave them undelivered in its journal until its next request.
     * Asked on each new connection and once every VERIFY_POSITION_SECONDS.
     *
     * @throws \RedisException
     */
    private function verifyPosition(\Redis $redis): void
    {
        $now = microtime(true);
        if ($this->position === null || ($this->verifiedOn === $this->connection->opened() && $now - $this->verifiedAt < self::VERIFY_POSITION_SECONDS)) {
            return;
        }
        $before = $redis->hGet($this->keys->journal, $this->relayId);
        RedisConnection::check($redis);
        $this->checkPosition($redis, $before);
        [$this->verifiedOn, $this->verifiedAt] = [$this->connection->opened(), $now];
    }

    /** Redis's own clock, seconds: every relay's worker starts its SpoolClock from it, so due times agree. */
    public function serverTime(): float
    {
        /** @var array{string, string} $time */
        $time = $this->connection->run(static fn(\Redis $redis): mixed => $redis->time());

        return (int) $time[0] + (int) $time[1] / 1e6;
    }

    public function checkpoint(): bool
    {
        return true;
    }

    public function room(): ?int
    {
        return null;
    }

    public function releaseFreePages(int $minPages = 64): void {}

    public function mayStart(string $origin, int $cap): bool
    {
        if (($this->spare[$origin] ?? []) === [] && !$this->lease($origin, $cap)) {
            return false;
        }
        $member = array_pop($this->spare[$origin]);
        \assert(\is_string($member));
        $this->leases[$origin][] = $member;

        return true;
    }

    public function settled(string $origin): void
    {
        $member = array_pop($this->leases[$origin]);
        if ($member !== null) {
            $this->releases[$origin][] = $member;
        }
    }

    public function giveBack(array $ids): void
    {
        $held = array_intersect_key($this->entries, array_flip($ids));
        if ($held === []) {
            return;
        }
        $this->connection->run(fn(\Redis $redis) => RedisConnection::transaction($redis, function (\Redis $tx) use ($held): void {
            foreach ($held as $id => $entry) {
                $tx->xAck($this->keys->stream, RedisKeys::GROUP, [$entry]);
                $tx->xDel($this->keys->stream, [$entry]);
                $tx->xAdd($this->keys->stream, '*', ['id' => (string) $id]);
            }
        }));
        $this->entries = array_diff_key($this->entries, $held);
    }

    public function heartbeat(): void
    {
        if ($this->entries !== [] && microtime(true) - $this->heartbeatAt >= $this->claimAfterSeconds / 3) {
            $this->connection->run($this->claimOwn(...));
        }
        $this->releaseSpare();
    }

    public function journalGraceSeconds(): float
    {
        return self::JOURNAL_GRACE_SECONDS;
    }

    public function gauges(int $inFlight, int $journalLagBytes): array
    {
        try {
            return (new RedisGauges($this->keys))->read($this->connection, $this->relayId, $inFlight, $journalLagBytes);
        } catch (SpoolUnavailable) {
            return ['redis_up' => 0, 'forwarder_lag_bytes' => $journalLagBytes];
        }
    }

    /** @return array<string, list<string>> origin => leases of settled deliveries, and the ones granted and not used */
    private function leasesToRelease(): array
    {
        $all = $this->releases;
        foreach ($this->spare as $origin => $members) {
            $all[$origin] = [...$all[$origin] ?? [], ...$members];
        }

        return array_filter($all, static fn(array $members): bool => $members !== []);
    }

    /**
     * Leases a round of starts was granted and did not use go back at the end of the loop pass:
     * kept until the next commit, a slow delivery would have held them (and the fleet's cap)
     * for as long as it took.
     */
    private function releaseSpare(): void
    {
        $spare = array_filter($this->spare, static fn(array $members): bool => $members !== []);
        if ($spare === []) {
            return;
        }
        $this->connection->run(function (\Redis $redis) use ($spare): void {
            $pipe = $redis->multi(\Redis::PIPELINE);
            foreach ($spare as $origin => $members) {
                $pipe->zRem($this->keys->lease($origin), ...$members);
            }
            $pipe->exec();
        });
        $this->spare = [];
    }

    /** Asks for up to LEASE_BATCH leases on $origin; false: the fleet holds its cap. */
    private function lease(string $origin, int $cap): bool
    {
        $members = [];
        for ($i = 0; $i < min(self::LEASE_BATCH, $cap); ++$i) {
            $members[] = $this->consumer . ':' . ++$this->leaseSeq;
        }
        $granted = $this->connection->run(fn(\Redis $redis): mixed => RedisConnection::script($redis, RedisScripts::LEASE, [$this->keys->lease($origin)], [(int) ($this->leaseSeconds * 1000), $cap, ...$members]));
        $this->spare[$origin] = \array_slice($members, 0, RedisConnection::int($granted));

        return $this->spare[$origin] !== [];
    }

    private function forward(\Redis $tx, int $id, SpooledRequest $entry): void
    {
        $tx->hMSet($this->keys->request($id), [
            'm' => $entry->method, 'u' => $entry->uri, 'h' => RequestBytes::encodeHeaders($entry->headers), 'b' => $entry->body,
            'k' => $entry->idempotencyKey, 'a' => 0, 'c' => $entry->createdAt,
        ]);
        $tx->xAdd($this->keys->stream, '*', ['id' => (string) $id]);
    }

    /** @param float $now the worker's clock (SpoolClock: from Redis TIME), the dead letters' failed_at */
    private function record(\Redis $tx, Outcomes $outcomes, float $now): void
    {
        foreach ($outcomes->delivered as $id) {
            $tx->del($this->keys->request($id));
        }
        foreach ($outcomes->retries as $id => [$at, $attempts, $error]) {
            $tx->hMSet($this->keys->request($id), ['a' => $attempts, 'e' => $error]);
            $tx->zAdd($this->keys->due, $at, (string) $id);
        }
        foreach ($outcomes->dead as $id => [$attempts, $error]) {
            $tx->hMSet($this->keys->request($id), ['a' => $attempts, 'e' => $error, 'f' => $now]);
            $tx->zAdd($this->keys->dead, $id, (string) $id);
        }
        $done = array_values(array_intersect_key($this->entries, array_flip([...$outcomes->delivered, ...array_keys($outcomes->retries), ...array_keys($outcomes->dead)])));
        if ($done !== []) {
            $tx->xAck($this->keys->stream, RedisKeys::GROUP, $done);
            $tx->xDel($this->keys->stream, $done);
        }
        $tx->hIncrBy($this->keys->stats, 'delivered', \count($outcomes->delivered));
        $tx->hIncrBy($this->keys->stats, 'dead_lettered', \count($outcomes->dead));
    }

    /** @return array<string, int> stream entry => request id, new for this consumer */
    private function read(\Redis $redis, int $limit): array
    {
        $read = $redis->xReadGroup(RedisKeys::GROUP, $this->consumer, [$this->keys->stream => '>'], $limit);
        if ($read === false && str_contains((string) $redis->getLastError(), 'NOGROUP')) {
            $redis->clearLastError();
            $this->keys->ensureGroup($redis); // a Redis that came back empty

            return [];
        }
        RedisConnection::check($redis);
        $found = [];
        $entries = \is_array($read) ? ($read[$this->keys->stream] ?? []) : [];
        foreach (\is_array($entries) ? $entries : [] as $entry => $fields) {
            $found[(string) $entry] = RedisConnection::int(\is_array($fields) ? ($fields['id'] ?? 0) : 0);
        }

        return $found;
    }

    /**
     * Entries another worker took and left idle past claimAfter (it was killed, or its host is
     * gone): this worker takes them over. Looked for four times per claimAfter.
     *
     * @return array<string, int>
     */
    private function claim(\Redis $redis, int $limit): array
    {
        $now = microtime(true);
        if ($now - $this->claimedAt < $this->claimAfterSeconds / 4) {
            return [];
        }
        $this->claimedAt = $now;
        $claimed = $redis->rawCommand('XAUTOCLAIM', $this->keys->stream, RedisKeys::GROUP, $this->consumer, (string) (int) ($this->claimAfterSeconds * 1000), '0-0', 'COUNT', (string) $limit);
        RedisConnection::check($redis);
        $found = [];
        foreach (\is_array($claimed) && \is_array($claimed[1] ?? null) ? $claimed[1] : [] as $entry) {
            if (\is_array($entry) && isset($entry[0])) {
                // an entry without an id field (not one a relay wrote) comes as id 0: dropped as stale
                $found[RedisConnection::text($entry[0])] = \is_array($entry[1] ?? null) && ($entry[1][0] ?? null) === 'id' ? RedisConnection::int($entry[1][1] ?? 0) : 0;
            }
        }
        $this->metrics->add('claimed_total', \count($found));

        return $found;
    }

    /**
     * This worker's entries, in flight or waiting in memory, made fresh again (XCLAIM to itself,
     * JUSTID): a delivery longer than claimAfter is not taken over while this worker lives.
     */
    private function claimOwn(\Redis $redis): void
    {
        $now = microtime(true);
        if ($this->entries === [] || $now - $this->heartbeatAt < $this->claimAfterSeconds / 3) {
            return;
        }
        $this->heartbeatAt = $now;
        $redis->xClaim($this->keys->stream, RedisKeys::GROUP, $this->consumer, 0, array_values($this->entries), ['JUSTID']);
        RedisConnection::check($redis);
    }

    /**
     * The requests behind the entries (rows()). An entry whose request is gone
     * (delivered by another worker that took it over) or already held here is acknowledged and
     * dropped; one whose request no relay could have written becomes a dead letter (RedisEntry).
     *
     * @param array<string, int> $found
     * @param array<int, true>   $skip
     *
     * @return list<SpooledRequest>
     *
     * @throws \RedisException
     */
    private function load(\Redis $redis, array $found, array $skip): array
    {
        if ($found === []) {
            return [];
        }
        $rows = $this->rows($redis, array_values($found));
        [$requests, $stale, $malformed] = [[], [], []];
        foreach (array_keys($found) as $i => $entry) {
            $id = $found[$entry];
            $row = $rows[$i] ?? 0;
            if (($this->entries[$id] ?? null) === $entry) {
                continue; // this worker's own, taken back by XAUTOCLAIM before its heartbeat: still held
            }
            if ($id <= 0 || $row === 0 || isset($skip[$id]) || isset($this->entries[$id])) {
                $stale[$entry] = $id;

                continue;
            }
            try {
                $requests[] = RedisEntry::hydrate($id, \is_array($row) ? $row : throw new \UnexpectedValueException(RedisConnection::text($row)));
                $this->entries[$id] = $entry;
            } catch (\UnexpectedValueException $e) {
                $malformed[$entry] = [$id, \is_string($row) ? 'not a request: ' . $row : 'malformed: ' . $e->getMessage()];
            }
        }
        $this->dropStale($redis, $stale);
        $this->deadLetterMalformed($redis, $malformed);

        return $requests;
    }

    /**
     * The request hashes behind a page of entries (one pipelined HMGET each), each as 0 (gone,
     * or no method: delivered by a worker that took it over), a sentence (not a hash, a body over
     * --max-body), or its fields m, u, h, b, k, a, c. The body is read before its size is
     * judged: asking its size first (HSTRLEN, then the bodies in a second round trip) or a Lua
     * script doing both cost 2 more commands per delivery and 5-15 µs more Redis CPU per
     * delivery in the fleet bench (relay/redis-deliver rows, two runs each side by side, noisy),
     * and Redis CPU is what a fleet's capacity is made of. Someone who can write to Redis can
     * still make a worker load a huge value: an attack on availability, as deleting the
     * stream is (docs/relay.md, threat model).
     *
     * @param list<int> $ids
     *
     * @return list<0|string|list<mixed>>
     *
     * @throws \RedisException
     */
    private function rows(\Redis $redis, array $ids): array
    {
        $pipe = $redis->multi(\Redis::PIPELINE);
        foreach ($ids as $id) {
            $pipe->hMGet($this->keys->request($id), ['m', 'u', 'h', 'b', 'k', 'a', 'c']);
        }
        $replies = $pipe->exec();
        $redis->clearLastError(); // a key of another type answered WRONGTYPE: said per row below
        $rows = [];
        foreach (array_keys($ids) as $i) {
            $fields = \is_array($replies) ? $replies[$i] ?? false : false;
            $body = \is_array($fields) ? $fields['b'] ?? false : false;
            $rows[] = match (true) {
                !\is_array($fields) => 'its key is not a hash',
                ($fields['m'] ?? false) === false => 0,
                \is_string($body) && \strlen($body) > $this->maxBodyBytes => \sprintf('its body of %d bytes is over --max-body (%d)', \strlen($body), $this->maxBodyBytes),
                default => array_values($fields),
            };
        }

        return $rows;
    }

    /**
     * Entries whose request is gone or held here: acknowledged and deleted, and a request hash
     * without its method (what a retry recorded by a worker whose entry another took over and
     * delivered leaves behind) with them.
     *
     * @param array<string, int> $stale stream entry => request id
     *
     * @throws \RedisException
     */
    private function dropStale(\Redis $redis, array $stale): void
    {
        if ($stale === []) {
            return;
        }
        $pipe = $redis->multi(\Redis::PIPELINE);
        $pipe->xAck($this->keys->stream, RedisKeys::GROUP, array_keys($stale));
        $pipe->xDel($this->keys->stream, array_keys($stale));
        foreach ($stale as $id) {
            if ($id > 0 && !isset($this->entries[$id])) {
                $pipe->eval("if redis.call('TYPE', KEYS[1]).ok == 'hash' and redis.call('HEXISTS', KEYS[1], 'm') == 0 then redis.call('DEL', KEYS[1]) end", [$this->keys->request($id)], 1);
            }
        }
        $pipe->exec();
    }

    /**
     * Requests no relay could have written (RedisEntry) become dead letters with the reason:
     * never delivered, never crashing a worker, listed by relay:failed, and said in the log.
     *
     * @param array<string, array{int, string}> $malformed stream entry => request id, why
     *
     * @throws \RedisException
     */
    private function deadLetterMalformed(\Redis $redis, array $malformed): void
    {
        if ($malformed === []) {
            return;
        }
        RedisConnection::transaction($redis, function (\Redis $tx) use ($malformed): void {
            foreach ($malformed as $entry => [$id, $why]) {
                $key = $this->keys->request($id);
                $tx->eval("if redis.call('TYPE', KEYS[1]).ok ~= 'hash' then redis.call('DEL', KEYS[1]) end", [$key], 1);
                $tx->hMSet($key, ['e' => 'Refused from Redis: ' . $why, 'f' => microtime(true)]);
                $tx->zAdd($this->keys->dead, $id, (string) $id);
                $tx->xAck($this->keys->stream, RedisKeys::GROUP, [$entry]);
                $tx->xDel($this->keys->stream, [$entry]);
            }
            $tx->hIncrBy($this->keys->stats, 'dead_lettered', \count($malformed));
        });
        foreach ($malformed as [$id, $why]) {
            $this->logger->warning('A request in Redis no relay could have written: moved to the dead letters, not delivered', ['id' => $id, 'error' => $why]);
        }
        $this->metrics->add('dead_lettered_total', \count($malformed));
    }
}
