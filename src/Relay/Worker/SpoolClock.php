<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Worker;

/**
 * The delivery worker's time: due times, backoff and ages in the spool are read on this clock,
 * not on the wall clock. It is the wall clock once, at start, then moves with the monotonic
 * clock (hrtime): a wall clock set a day back no longer freezes every retry for a day, and one
 * set two days forward no longer dead-letters everything that was retrying.
 *
 * Across restarts the worker persists the last time it saw (the spool's `clock_ms` counter) and
 * starts from the later of that and the wall clock: a clock found behind the spool's last time
 * is not believed (what was due in 5 s stays due in 5 s); a clock found ahead is, since the
 * relay may really have been down that long.
 *
 * @internal
 */
final class SpoolClock
{
    /**
     * Test-only: seconds added to the wall clock read at start, so a test can start the worker
     * with its clock set back or forward without changing the machine's. Not an option for
     * operators; docs/relay.md does not list it.
     */
    public const TEST_OFFSET_ENV = 'WARMHTTP_RELAY_TEST_CLOCK_OFFSET';

    private readonly int $startedNs;

    /**
     * @param float                $startedAt what now() says at start, seconds
     * @param \Closure(): int|null $monotonic nanoseconds on a clock that only moves forward
     */
    public function __construct(private readonly float $startedAt, private readonly ?\Closure $monotonic = null)
    {
        $this->startedNs = $this->monotonicNs();
    }

    /**
     * @param float|null           $lastSeen  the latest time the spool was written with, if any
     * @param \Closure(): int|null $monotonic for tests; hrtime by default
     */
    public static function start(?float $lastSeen, float $wall, ?\Closure $monotonic = null): self
    {
        return new self(max($wall, $lastSeen ?? 0.0), $monotonic);
    }

    /** The wall clock as the worker starts with it: the machine's, moved by the test-only offset. */
    public static function wall(): float
    {
        $offset = getenv(self::TEST_OFFSET_ENV);

        return microtime(true) + (is_numeric($offset) ? (float) $offset : 0.0);
    }

    public function now(): float
    {
        return $this->startedAt + ($this->monotonicNs() - $this->startedNs) / 1e9;
    }

    private function monotonicNs(): int
    {
        $ns = $this->monotonic === null ? hrtime(true) : ($this->monotonic)();
        \assert(\is_int($ns));

        return $ns;
    }
}
