<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Front;

use WarmHttp\Relay\Storage\JournalPosition;

/**
 * With --ack=redis: the callers whose 202 waits for the delivery worker's forwarder to put their
 * journal record into Redis. A record is forwarded once the worker's reported journal position
 * is past its start (the reader moves past whole records only). Oldest first: records are
 * appended, and so forwarded, in the order they were parked.
 *
 * @internal
 */
final class ForwardWaiters
{
    /** @var list<array{CallerConnection, JournalPosition, string, string, float}> connection, record start, id, key, deadline */
    private array $waiting = [];

    private ?JournalPosition $forwarded = null;

    public function park(CallerConnection $connection, string $id, string $key, float $deadline): void
    {
        [$segment, $offset] = explode('-', $id, 2);
        $this->waiting[] = [$connection, new JournalPosition((int) $segment, (int) $offset), $id, $key, $deadline];
    }

    public function count(): int
    {
        return \count($this->waiting);
    }

    /**
     * The worker reported its position: the callers whose records are before it.
     *
     * @return list<array{CallerConnection, string, string}> connection, id, key
     */
    public function forwarded(JournalPosition $position): array
    {
        $this->forwarded = $position;
        $done = [];
        while ($this->waiting !== [] && $this->waiting[0][1]->isBefore($position)) {
            [$connection, , $id, $key] = array_shift($this->waiting);
            $done[] = [$connection, $id, $key];
        }

        return $done;
    }

    /** @return list<array{CallerConnection, string, string}> callers waited for longer than --ack-timeout */
    public function expired(float $now): array
    {
        $done = [];
        while ($this->waiting !== [] && $this->waiting[0][4] <= $now) {
            [$connection, , $id, $key] = array_shift($this->waiting);
            $done[] = [$connection, $id, $key];
        }

        return $done;
    }

    public function lastForwarded(): ?JournalPosition
    {
        return $this->forwarded;
    }

    /** Parses the worker's report lines ("segment:offset\n"); the last whole one wins. */
    public static function lastPosition(string $lines): ?JournalPosition
    {
        if (preg_match_all('/^(\d+):(\d+)$/m', $lines, $m) === 0) {
            return null;
        }
        $last = \count($m[0]) - 1;

        return new JournalPosition((int) $m[1][$last], (int) $m[2][$last]);
    }
}
