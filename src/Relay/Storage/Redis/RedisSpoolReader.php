<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Storage\Redis;

use WarmHttp\Relay\Storage\SpoolInspector;

/**
 * relay:status, relay:failed and relay:retry on a fleet's Redis spool, from any host: the
 * counts are the whole fleet's, and a dead letter requeued here is delivered by whichever
 * relay takes it first.
 *
 * @internal
 */
final class RedisSpoolReader implements SpoolInspector
{
    private function __construct(private readonly RedisConnection $connection, private readonly RedisKeys $keys) {}

    public static function open(RedisAddress $address): self
    {
        $keys = new RedisKeys($address->prefix);

        return new self(new RedisConnection($address, static function (): void {}), $keys);
    }

    public function counts(?\Closure $inJournal = null): array
    {
        $counts = $this->connection->run(fn(\Redis $redis): array => (new RedisGauges($this->keys))->counts($redis));

        return [
            // requests still in a relay's local journal are not in Redis yet: relays() shows each one's lag
            'pending' => $counts['queue_depth'],
            'retrying' => $counts['retrying'],
            'dead' => $counts['dead_letters'],
            'delivered' => $counts['fleet_delivered'],
            'dead_lettered' => $counts['fleet_dead_lettered'],
            'oldest_age_seconds' => $counts['oldest_pending_age_seconds'],
        ];
    }

    public function relays(): array
    {
        return $this->connection->run(fn(\Redis $redis): array => (new RedisGauges($this->keys))->relays($redis));
    }

    public function deadLetters(int $limit = 100): array
    {
        return $this->connection->run(function (\Redis $redis) use ($limit): array {
            $ids = $this->deadIds($redis, $limit);
            $pipe = $redis->multi(\Redis::PIPELINE);
            foreach ($ids as $id) {
                $pipe->hMGet($this->keys->request($id), ['m', 'u', 'a', 'f', 'e']);
            }
            $replies = $pipe->exec();
            $rows = [];
            foreach ($ids as $i => $id) {
                $row = \is_array($replies) ? ($replies[$i] ?? null) : null;
                $text = static fn(string $field): string => \is_array($row) ? RedisConnection::text($row[$field] ?? '') : '';
                $rows[] = ['id' => $id, 'method' => $text('m'), 'uri' => $text('u'), 'attempts' => (int) $text('a'), 'failed_at' => (float) $text('f'), 'last_error' => $text('e')];
            }

            return $rows;
        });
    }

    public function retry(?array $ids): int
    {
        return $this->connection->run(function (\Redis $redis) use ($ids): int {
            $ids ??= $this->deadIds($redis, \PHP_INT_MAX);
            $moved = 0;
            foreach ($ids as $id) {
                $moved += RedisConnection::int(RedisConnection::script($redis, RedisScripts::REQUEUE, [$this->keys->dead, $this->keys->stream, $this->keys->request($id)], [$id]));
            }

            return $moved;
        });
    }

    /**
     * @return list<int> the oldest dead letters' ids, at most $limit
     *
     * @throws \RedisException
     */
    private function deadIds(\Redis $redis, int $limit): array
    {
        $ids = $redis->zRange($this->keys->dead, 0, $limit === \PHP_INT_MAX ? -1 : $limit - 1);

        return array_values(array_map(RedisConnection::int(...), \is_array($ids) ? $ids : []));
    }
}
