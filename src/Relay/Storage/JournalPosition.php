<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Storage;

/**
 * How far the spool has taken in the journal: everything before this offset of this segment
 * (and every earlier segment) is in SQLite. Stored in the same transaction as the rows, so a
 * crash can neither lose nor duplicate a record.
 *
 * @internal
 */
final readonly class JournalPosition
{
    public function __construct(public int $segment, public int $offset) {}

    public function isBefore(self $other): bool
    {
        return $this->segment < $other->segment || ($this->segment === $other->segment && $this->offset < $other->offset);
    }
}
