<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Front;

/**
 * How much the front gives callers, so that one caller (or a thousand idle ones) cannot starve
 * the rest: a connection cap, idle and head timeouts, and input budgets.
 *
 * @internal
 */
final readonly class FrontLimits
{
    /**
     * stream_select() handles descriptors below FD_SETSIZE (1024) only: past it, it fails on
     * every call, and at ~1,013 idle connections the front spun at 100% CPU serving nobody.
     * Besides its callers the front holds stdio, its listeners, journal and spool files, and one
     * upstream socket per sync request in flight (at most one per caller) plus curl's idle ones:
     * 400 callers leave room for all of that under 1024.
     */
    public const MAX_CONNECTIONS = 400;

    /** A caller with nothing in flight and no byte sent for this long is closed (apps reconnect). */
    public const IDLE_SECONDS = 120.0;

    /** From the first byte of a request's head to its blank line (slowloris). */
    public const HEAD_SECONDS = 10.0;

    /**
     * All callers' buffered input together. Past it, only connections holding little are read
     * (plus the one holding most, so that it can finish and free its share): 100 callers each
     * holding a body under --max-body took 1 GiB before.
     */
    public const INPUT_BUDGET_BYTES = 268435456;

    /** What a connection may hold past the request being answered (pipelined requests). */
    public const READ_AHEAD_BYTES = 1048576;

    /** A connection holding less than this is still read when the budget is spent. */
    public const SMALL_INPUT_BYTES = 131072;

    public function __construct(
        public int $maxConnections = self::MAX_CONNECTIONS,
        public float $idleSeconds = self::IDLE_SECONDS,
        public float $headSeconds = self::HEAD_SECONDS,
        public int $inputBudgetBytes = self::INPUT_BUDGET_BYTES,
    ) {}
}
