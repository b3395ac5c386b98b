<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Worker;

use Psr\Log\LoggerInterface;
use Psr\Log\NullLogger;
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
 * A damaged record (a flipped byte on disk) is skipped up to the next record marker, so one bad
 * record no longer takes every later one of its segment with it; the segment is copied to the
 * quarantine folder before it can be removed, and the skipped bytes are logged.
 *
 * @internal
 */
final class JournalReader
{
    private const BATCH = 512;

    /** @var array<string, true> "segment-offset" of damage already reported */
    private array $reported = [];

    public function __construct(private readonly string $dir, private readonly LoggerInterface $logger = new NullLogger()) {}

    /**
     * @param int $maxBytes journal bytes to read at most (one record at least)
     *
     * @return array{list<SpooledRequest>, JournalPosition} the records read and the position after them
     */
    public function read(JournalPosition $from, int $maxBytes = \PHP_INT_MAX): array
    {
        $segments = Journal::segments($this->dir);
        $requests = [];
        $position = $from;
        $read = 0;
        $newest = $segments === [] ? 0 : $segments[\count($segments) - 1];
        foreach ($segments as $segment) {
            if ($segment < $position->segment) {
                continue;
            }
            $start = $segment === $position->segment ? $position->offset : 0;
            [$found, $offset] = $this->readSegment($segment, $start, self::BATCH - \count($requests), $segment === $newest, $maxBytes - $read);
            $requests = [...$requests, ...$found];
            $read += $offset - $start;
            $position = new JournalPosition($segment, $offset);
            if (\count($requests) >= self::BATCH || $segment === $newest || $read >= $maxBytes) {
                break;
            }
        }

        return [$requests, $position];
    }

    /**
     * How many whole records follow the position: acknowledged, not yet in the spool. Reads
     * every byte of the backlog: for start-up and tests, not for a scrape.
     */
    public function backlog(JournalPosition $from): int
    {
        $count = 0;
        foreach (Journal::segments($this->dir) as $segment) {
            if ($segment < $from->segment) {
                continue;
            }
            $bytes = (string) @file_get_contents(Journal::segmentPath($this->dir, $segment), false, null, $segment === $from->segment ? $from->offset : 0);
            $legacy = JournalRecord::isLegacy($bytes);
            for ($at = 0; $at < \strlen($bytes);) {
                $length = JournalRecord::check($bytes, $at, $legacy);
                if ($length > 0) {
                    ++$count;
                }
                $at = $length > 0 ? $at + $length : ($length === 0 ? \strlen($bytes) : $this->skipDamage($bytes, $at, false) ?? \strlen($bytes));
            }
        }

        return $count;
    }

    /** Journal bytes after the position (records not taken in yet): a stat per segment, no read. */
    public function bytesAfter(JournalPosition $from): int
    {
        $bytes = 0;
        foreach (Journal::segments($this->dir) as $segment) {
            if ($segment >= $from->segment) {
                $size = @filesize(Journal::segmentPath($this->dir, $segment));
                $bytes += max(0, ($size === false ? 0 : $size) - ($segment === $from->segment ? $from->offset : 0));
            }
        }

        return $bytes;
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

    /**
     * @param int $maxBytes stop once this many bytes are read (the first record is read whatever its size)
     *
     * @return array{list<SpooledRequest>, int} the requests and the offset after them
     */
    private function readSegment(int $segment, int $offset, int $limit, bool $newest, int $maxBytes): array
    {
        $bytes = @file_get_contents(Journal::segmentPath($this->dir, $segment), false, null, $offset);
        if ($bytes === false || $bytes === '') {
            return [[], $offset];
        }
        $requests = [];
        $at = 0;
        $legacy = JournalRecord::isLegacy($bytes);
        while (\count($requests) < $limit && $at < \strlen($bytes) && ($at === 0 || $at < $maxBytes)) {
            $length = JournalRecord::check($bytes, $at, $legacy);
            $record = $length > 0 ? JournalRecord::decode($bytes, $at, $legacy) : null;
            if ($record !== null) {
                $requests[] = $record[0];
                $at += $length;

                continue;
            }
            if ($length === 0) {
                // Not all there: being written (newest segment), or a torn tail never acknowledged.
                return [$requests, $newest ? $offset + $at : $offset + \strlen($bytes)];
            }
            $skipTo = $this->skipDamage($bytes, $at, $newest);
            if ($skipTo === null) {
                return [$requests, $offset + $at]; // damage at the end: wait for the next marker or a rotation
            }
            $this->damaged($segment, $offset + $at, $skipTo - $at);
            $at = $skipTo;
        }

        return [$requests, $offset + $at];
    }

    /**
     * Where reading resumes after the damaged record at $at. An intact header tells where the
     * record ends; only a damaged one makes the reader look for the next marker, since a body may
     * contain the marker's bytes (even a whole record, forged by a caller). Null: nothing follows
     * yet in the newest segment.
     */
    private function skipDamage(string $bytes, int $at, bool $newest): ?int
    {
        $extent = JournalRecord::extent($bytes, $at);
        if ($extent !== null) {
            return min($at + $extent, \strlen($bytes));
        }
        $next = JournalRecord::nextMarker($bytes, $at + 1);

        return $next ?? ($newest ? null : \strlen($bytes));
    }

    private function damaged(int $segment, int $offset, int $bytes): void
    {
        $key = $segment . '-' . $offset;
        if (isset($this->reported[$key])) {
            return;
        }
        $this->reported[$key] = true;
        $kept = $this->quarantine($segment);
        $this->logger->error('A journal record is damaged on disk; skipped to the next intact record', [
            'segment' => Journal::segmentPath($this->dir, $segment),
            'offset' => $offset,
            'skipped_bytes' => $bytes,
            'quarantined_copy' => $kept,
        ]);
    }

    /** A copy of the damaged segment for a person to look at; the original goes as usual. */
    private function quarantine(int $segment): ?string
    {
        $dir = Journal::quarantineDir($this->dir);
        $copy = $dir . '/' . basename(Journal::segmentPath($this->dir, $segment));
        if ((!is_dir($dir) && !@mkdir($dir, 0o700)) || !@copy(Journal::segmentPath($this->dir, $segment), $copy)) {
            return null;
        }
        @chmod($copy, 0o600); // it holds requests' headers and bodies

        return $copy;
    }
}
