<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Worker;

use WarmHttp\Relay\Front\WorkerHandle;
use WarmHttp\Relay\Storage\JournalPosition;

/**
 * With --ack=redis: the worker's two pipes to its front. It reports each journal position its
 * forwarder committed to Redis (the front answers the callers whose records are before it), and
 * sleeps on the wake pipe rather than a fixed tick, so a parked caller's record is forwarded as
 * soon as it is journaled (with whatever else is there: a group commit).
 *
 * @internal
 */
final class AckChannel
{
    /**
     * @param resource $reports
     * @param resource $wakes
     */
    private function __construct(private $reports, private $wakes) {}

    /** The descriptors the front gave this worker (WorkerHandle); null when they are not pipes. */
    public static function inherited(): ?self
    {
        $reports = @fopen('php://fd/' . WorkerHandle::REPORT_FD, 'w');
        $wakes = @fopen('php://fd/' . WorkerHandle::WAKE_FD, 'r');
        if ($reports === false || $wakes === false) {
            return null;
        }
        stream_set_blocking($reports, false);
        stream_set_blocking($wakes, false);

        return new self($reports, $wakes);
    }

    /** A full pipe drops the line: the next report carries a later position. */
    public function report(JournalPosition $position): void
    {
        @fwrite($this->reports, $position->segment . ':' . $position->offset . "\n");
    }

    /** Sleeps at most $seconds, less if the front wakes the forwarder; its bytes are read away. */
    public function sleep(float $seconds): void
    {
        $read = [$this->wakes];
        $write = $except = null;
        $whole = (int) $seconds;
        if (@stream_select($read, $write, $except, $whole, (int) (($seconds - $whole) * 1e6)) > 0) {
            @fread($this->wakes, 4096);
        }
    }
}
