<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Storage\Redis;

/**
 * The fleet's state in one pipeline: queue depth, retrying, dead letters and the counters of
 * every relay, and each relay's own report (in flight, forwarder lag) under `relays`, which a
 * worker refreshes twice a second. A relay not heard from for REPORT_TTL_SECONDS is left out.
 *
 * @internal
 */
final readonly class RedisGauges
{
    public const REPORT_TTL_SECONDS = 10.0;

    /**
     * KEYS: relays. ARGV: relay id, its report (JSON). The report is stamped with Redis TIME,
     * and read against it: stamped with each host's own clock, a relay on a host 10 s behind
     * the one running relay:status was left out of the fleet (fleet_relays, in flight).
     */
    private const REPORT = <<<'LUA'
        local t = redis.call('TIME')
        local report = cjson.decode(ARGV[2])
        report['at'] = tonumber(t[1]) + tonumber(t[2]) / 1000000
        redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(report))
        return 1
        LUA;

    public function __construct(private RedisKeys $keys) {}

    /**
     * Reports this relay, then reads the fleet's gauges.
     *
     * @return array<string, int|float>
     */
    public function read(RedisConnection $connection, string $relayId, int $inFlight, int $lagBytes): array
    {
        $report = json_encode(['in_flight' => $inFlight, 'forwarder_lag_bytes' => $lagBytes]);
        [$counts, $relays] = $connection->run(function (\Redis $redis) use ($relayId, $report): array {
            RedisConnection::script($redis, self::REPORT, [$this->keys->relays], [$relayId, (string) $report]);

            return [$this->counts($redis), $this->relays($redis)];
        });

        return $counts + [
            'redis_up' => 1,
            'forwarder_lag_bytes' => $lagBytes,
            'fleet_relays' => \count($relays),
            'fleet_in_flight' => array_sum(array_column($relays, 'in_flight')),
            'fleet_forwarder_lag_bytes' => array_sum(array_column($relays, 'forwarder_lag_bytes')),
        ];
    }

    /**
     * @return array{queue_depth: int, retrying: int, dead_letters: int, fleet_delivered: int, fleet_dead_lettered: int, oldest_pending_age_seconds: float}
     *
     * @throws \RedisException
     */
    public function counts(\Redis $redis): array
    {
        $pipe = $redis->multi(\Redis::PIPELINE);
        $pipe->xLen($this->keys->stream);
        $pipe->zCard($this->keys->due);
        $pipe->zCard($this->keys->dead);
        $pipe->hMGet($this->keys->stats, ['delivered', 'dead_lettered']);
        $pipe->xRange($this->keys->stream, '-', '+', 1);
        $pipe->time();
        $result = $pipe->exec();
        RedisConnection::check($redis);
        /** @var array{int, int, int, array<string, string|false>, array<string, mixed>, array{string, string}} $result */
        $oldest = array_key_first($result[4] ?: []);
        $now = (int) $result[5][0] + (int) $result[5][1] / 1e6;

        return [
            'queue_depth' => (int) $result[0] + (int) $result[1],
            'retrying' => (int) $result[1],
            'dead_letters' => (int) $result[2],
            'fleet_delivered' => (int) $result[3]['delivered'],
            'fleet_dead_lettered' => (int) $result[3]['dead_lettered'],
            // a stream entry's id is the Redis time it was added, in milliseconds
            'oldest_pending_age_seconds' => $oldest === null ? 0.0 : round(max(0.0, $now - (int) explode('-', (string) $oldest)[0] / 1000), 3),
        ];
    }

    /**
     * @return array<string, array{in_flight: int, forwarder_lag_bytes: int, seen_seconds_ago: float}> relay id => its last report
     *
     * @throws \RedisException
     */
    public function relays(\Redis $redis): array
    {
        $relays = [];
        $pipe = $redis->multi(\Redis::PIPELINE);
        $pipe->hGetAll($this->keys->relays);
        $pipe->time();
        [$all, $time] = $pipe->exec() + [[], [0, 0]];
        RedisConnection::check($redis);
        $now = \is_array($time) ? RedisConnection::int($time[0] ?? 0) + RedisConnection::int($time[1] ?? 0) / 1e6 : 0.0;
        foreach (\is_array($all) ? $all : [] as $id => $json) {
            $report = json_decode(RedisConnection::text($json), true);
            $ago = \is_array($report) && is_numeric($report['at'] ?? null) ? $now - (float) $report['at'] : \INF;
            if ($ago <= self::REPORT_TTL_SECONDS && \is_array($report)) {
                $relays[(string) $id] = ['in_flight' => RedisConnection::int($report['in_flight'] ?? 0), 'forwarder_lag_bytes' => RedisConnection::int($report['forwarder_lag_bytes'] ?? 0), 'seen_seconds_ago' => round(max(0.0, $ago), 3)];
            }
        }

        return $relays;
    }
}
