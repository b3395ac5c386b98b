<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Worker;

use WarmHttp\Relay\Storage\Journal;
use WarmHttp\Relay\Storage\JournalPosition;
use WarmHttp\Relay\Storage\JournalRecord;
use WarmHttp\Relay\Storage\SpooledRequest;

/**
 * The delivery worker's side of the journal: reads the records after a position, at most a
 * batch at a time, and removes segments the spool has taken in. A record that is not whole
 * yet in the newest segment may still be being written, so the reader waits for it there;
 * in an older segment it is a torn tail that was never acknowledged, and the reader moves on.
 *
 * @internal
 */
final class JournalReader
{
    private const BATCH = 512;

    public function __construct(private readonly string $dir) {}

    /** @return array{list<SpooledRequest>, JournalPosition} the records read and the position after them */
    public function read(JournalPosition $from): array
    {
        $segments = Journal::segments($this->dir);
        $requests = [];
        $position = $from;
        foreach ($segments as $segment) {
            if ($segment < $position->segment) {
                continue;
            }
            $offset = $segment === $position->segment ? $position->offset : 0;
            [$found, $offset] = $this->readSegment($segment, $offset, self::BATCH - \count($requests));
            $requests = [...$requests, ...$found];
            $position = new JournalPosition($segment, $offset);
            if (\count($requests) >= self::BATCH || $segment === $segments[\count($segments) - 1]) {
                break;
            }
        }

        return [$requests, $position];
    }

    /** How many whole records follow the position: acknowledged, not yet in the spool. */
    public function backlog(JournalPosition $from): int
    {
        $count = 0;
        foreach (Journal::segments($this->dir) as $segment) {
            if ($segment < $from->segment) {
                continue;
            }
            $bytes = (string) @file_get_contents(Journal::segmentPath($this->dir, $segment), false, null, $segment === $from->segment ? $from->offset : 0);
            for ($at = 0; ($length = JournalRecord::wholeLength($bytes, $at)) !== null; $at += $length) {
                ++$count;
            }
        }

        return $count;
    }

    /** Deletes the segments wholly before the position (their records are in the spool). */
    public function forget(JournalPosition $position): void
    {
        foreach (Journal::segments($this->dir) as $segment) {
            if ($segment < $position->segment) {
                @unlink(Journal::segmentPath($this->dir, $segment));
            }
        }
    }

    /** @return array{list<SpooledRequest>, int} */
    private function readSegment(int $segment, int $offset, int $limit): array
    {
        $bytes = @file_get_contents(Journal::segmentPath($this->dir, $segment), false, null, $offset);
        if ($bytes === false || $bytes === '') {
            return [[], $offset];
        }
        $requests = [];
        $at = 0;
        while (\count($requests) < $limit && ($record = JournalRecord::decode($bytes, $at)) !== null) {
            $requests[] = $record[0];
            $at += $record[1];
        }

        return [$requests, $offset + $at];
    }
}
