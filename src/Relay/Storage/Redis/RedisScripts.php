<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Storage\Redis;

/**
 * The spool's Lua scripts: each runs atomically in Redis, so two relays never move the same
 * retry twice, never both take the last delivery slot of a destination, and a dead letter is
 * requeued once however many hosts ask.
 *
 * @internal
 */
final class RedisScripts
{
    /**
     * KEYS: due, stream. ARGV: now (the worker clock, started from Redis TIME), most to move.
     * Retries whose time has come go into the stream, where any relay's consumer takes them.
     */
    public const PROMOTE = <<<'LUA'
        local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
        for _, id in ipairs(ids) do
            redis.call('ZREM', KEYS[1], id)
            redis.call('XADD', KEYS[2], '*', 'id', id)
        end
        return #ids
        LUA;

    /**
     * KEYS: lease:<origin>. ARGV: lease milliseconds, cap, then the members wanted. Grants as
     * many as the cap leaves room for and returns how many (the first ones). A lease expires by
     * itself when the relay holding it dies, so a killed relay does not keep its slots.
     */
    public const LEASE = <<<'LUA'
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        local ttl = tonumber(ARGV[1])
        redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
        local granted = math.min(tonumber(ARGV[2]) - redis.call('ZCARD', KEYS[1]), #ARGV - 2)
        for i = 1, granted do
            redis.call('ZADD', KEYS[1], now + ttl, ARGV[i + 2])
        end
        if granted > 0 then
            redis.call('PEXPIRE', KEYS[1], ttl)
            return granted
        end
        return 0
        LUA;

    /**
     * KEYS: dead, stream, request hash. ARGV: id. Back in the stream with a fresh attempt count
     * and age (Redis TIME); the Idempotency-Key stays. 0: not a dead letter.
     */
    public const REQUEUE = <<<'LUA'
        if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then
            return 0
        end
        local t = redis.call('TIME')
        redis.call('HSET', KEYS[3], 'a', 0, 'c', tonumber(t[1]) + tonumber(t[2]) / 1000000)
        redis.call('HDEL', KEYS[3], 'f')
        redis.call('XADD', KEYS[2], '*', 'id', ARGV[1])
        return 1
        LUA;

    /**
     * KEYS: seq. ARGV: how many ids. Returns the last of them. Ids never fall below Redis TIME in
     * microseconds: a seq that is not there (a new Redis, or one that lost its data: FLUSHALL, a
     * restart without persistence) or that is behind (a failover whose new master never got the
     * ids the old one gave until it was demoted) starts again from it, so ids given after a loss
     * never meet the ones workers still hold from before it (a worker dropped such a request as
     * one it held, and its delivery of the old one then deleted the new one's hash). This holds
     * while a fleet takes fewer than a million ids a second and its Redis hosts' clocks agree
     * within the split brain's length. Ids stay under 2^53 (Lua's numbers) until the year 2255.
     */
    public const NEXT_IDS = <<<'LUA'
        local t = redis.call('TIME')
        local floor = tonumber(t[1] .. string.format('%06d', tonumber(t[2])))
        if (tonumber(redis.call('GET', KEYS[1])) or 0) < floor then
            redis.call('SET', KEYS[1], string.format('%d', floor))
        end
        return redis.call('INCRBY', KEYS[1], ARGV[1])
        LUA;
}
