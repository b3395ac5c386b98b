<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Storage;

use WarmHttp\Relay\Worker\Outcomes;

/**
 * The delivery worker's seam to its durable queue: the SQLite spool of one host (Spool), or a
 * Redis spool shared by a fleet of relays (Redis\RedisSpool). The worker's loop, backlog,
 * retry policy and deliveries are the same over both; what differs is where requests wait,
 * who may take them, and how many deliveries a destination may get at once.
 *
 * @internal
 */
interface SpoolStore
{
    /**
     * Stores journal records and applies delivery outcomes, with the new journal position, in
     * one transaction.
     *
     * @param list<SpooledRequest> $entries
     *
     * @return list<SpooledRequest> entries this worker may start at once without reading them
     *                              back (a shared spool returns none: the fleet takes them in turn)
     *
     * @throws SpoolUnavailable nothing was stored
     */
    public function commit(array $entries, ?Outcomes $outcomes = null, ?JournalPosition $taken = null, ?float $clock = null): array;

    /**
     * Requests this worker should deliver now.
     *
     * @param array<int, true> $skip ids in flight or already waiting in memory
     *
     * @return list<SpooledRequest>
     */
    public function due(float $now, int $limit, array $skip, int $maxBytes = 32 * 1048576): array;

    /** When the spool should be looked at again after $now; null: nothing waits. */
    public function nextDueAfter(float $now): ?float;

    /** How far this relay's journal has been taken in. */
    public function journalPosition(): JournalPosition;

    /** @return bool false: a full disk keeps the spool from making room */
    public function checkpoint(): bool;

    /** Bytes new requests can take; null: unknown or not on this host's disk. */
    public function room(): ?int;

    public function releaseFreePages(int $minPages = 64): void;

    /**
     * Whether one more delivery to $origin may start now, given a cap of $cap at once. The
     * worker counts its own; a shared spool also holds a lease that counts for every relay.
     */
    public function mayStart(string $origin, int $cap): bool;

    /** A delivery to $origin that mayStart() allowed is over (its lease may go). */
    public function settled(string $origin): void;

    /**
     * Requests taken with due() that this worker will not start (it is stopping): another
     * worker may take them at once.
     *
     * @param list<int> $ids
     */
    public function giveBack(array $ids): void;

    /**
     * Called on every pass of the worker's loop: a shared spool tells the others, now and then,
     * that the requests this worker holds are still its own (cheap otherwise).
     */
    public function heartbeat(): void;

    /**
     * Seconds a journal segment must be kept after the spool took it in: a spool that may lose
     * its last writes (Redis with appendfsync everysec) gets them again from the journal.
     */
    public function journalGraceSeconds(): float;

    /**
     * Gauges of the whole spool for /metrics, as the worker sees it; never throws.
     *
     * @return array<string, int|float>
     */
    public function gauges(int $inFlight, int $journalLagBytes): array;
}
