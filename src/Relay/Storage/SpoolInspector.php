<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Storage;

/**
 * What relay:status, relay:failed and relay:retry read or change: the SQLite spool of one
 * relay (SpoolReader) or the Redis spool of a fleet (Redis\RedisSpoolReader), the same way.
 *
 * @internal
 */
interface SpoolInspector
{
    /**
     * @param \Closure(int): int|null $inJournal SQLite only: records still in the local journal
     *
     * @return array{pending: int, retrying: int, dead: int, delivered: int, dead_lettered: int, oldest_age_seconds: float}
     */
    public function counts(?\Closure $inJournal = null): array;

    /** @return list<array{id: int, method: string, uri: string, attempts: int, failed_at: float, last_error: string}> */
    public function deadLetters(int $limit = 100): array;

    /**
     * @param list<int>|null $ids null: all of them
     *
     * @return int how many were requeued
     */
    public function retry(?array $ids): int;

    /**
     * The relays sharing this spool, as they last reported; [] for a spool of one relay.
     *
     * @return array<string, array{in_flight: int, forwarder_lag_bytes: int, seen_seconds_ago: float}>
     */
    public function relays(): array;
}
