<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Worker;

use Psr\Log\LoggerInterface;
use WarmHttp\Relay\Storage\Journal;
use WarmHttp\Relay\Storage\JournalPosition;
use WarmHttp\Relay\Storage\Spool;
use WarmHttp\Relay\Storage\SpooledRequest;
use WarmHttp\Relay\Storage\SpoolReader;
use WarmHttp\Relay\Storage\SpoolStore;
use WarmHttp\Relay\Storage\SpoolUnavailable;

/**
 * One journal, consumed first by one kind of spool and then by the other: an operator moves a
 * relay from its SQLite spool to a fleet's Redis (`--spool=PATH` then `--spool=redis://...
 * --journal=PATH`), or back. Each spool keeps its own journal position, so the new one started
 * from the journal's first segment: it took again what the old one had already taken (delivered
 * twice, silently), and the old one's undelivered requests stayed behind in it (never delivered
 * while it was not used). Now:
 *
 * - a Redis worker writes its journal position to `PATH.forwarded` after each commit that moves
 *   it; a SQLite worker starting on that journal resumes after it;
 * - a Redis worker starting on a journal a SQLite spool at PATH consumed resumes after that
 *   spool's position and moves the spool's waiting requests into Redis (dead letters stay,
 *   relay:failed --spool=PATH lists them).
 *
 * Positions only move forward (segments are numbered upwards), so each worker takes the later of
 * its own and the other's; one naming a segment past the newest on disk (a journal directory
 * removed by hand) is ignored.
 *
 * @internal
 */
final class JournalHandover
{
    /** Requests moved from a SQLite spool into Redis per transaction. */
    private const MOVE_BATCH = 256;

    /** @var resource|null */
    private $file = null;

    private function __construct(private readonly string $path) {}

    /** The Redis worker's side: records where it has forwarded to. */
    public static function recorder(string $base): self
    {
        return new self($base . '.forwarded');
    }

    /** After a commit: where the journal has been forwarded to (20 bytes rewritten in place, no fsync). */
    public function forwarded(JournalPosition $position): void
    {
        $this->file ??= @fopen($this->path, 'c') ?: null;
        if ($this->file === null) {
            return; // a SQLite spool started later re-reads more of the journal: duplicates, not losses
        }
        $line = str_pad($position->segment . ':' . $position->offset, 40) . "\n";
        @fseek($this->file, 0);
        @fwrite($this->file, $line);
    }

    /** A SQLite worker starting on a journal a Redis worker forwarded: resumes after it. */
    public static function intoSqlite(SpoolStore $spool, string $base, LoggerInterface $logger): void
    {
        $text = @file_get_contents($base . '.forwarded');
        if ($text === false || preg_match('/^(\d+):(\d+)\s*$/', $text, $m) !== 1) {
            return;
        }
        self::resume($spool, new JournalPosition((int) $m[1], (int) $m[2]), $base, 'a fleet\'s Redis spool (this relay ran with --spool=redis://... before)', $logger);
    }

    /**
     * A Redis worker starting on a journal a SQLite spool at $base consumed: resumes after it,
     * and moves what waits in it into Redis.
     *
     * @throws SpoolUnavailable
     */
    public static function fromSqlite(SpoolStore $redis, string $base, LoggerInterface $logger): void
    {
        if (!is_file($base)) {
            return;
        }
        try {
            $sqlite = Spool::open($base);
            $position = $sqlite->journalPosition();
        } catch (\PDOException|SpoolUnavailable $e) {
            $logger->error('A SQLite spool beside this journal could not be read; what waits in it is not delivered by the fleet', ['spool' => $base, 'error' => $e->getMessage()]);

            return;
        }
        self::resume($redis, $position, $base, 'the SQLite spool at ' . $base, $logger);
        self::move($sqlite, $redis, $base, $logger);
    }

    /** @throws SpoolUnavailable */
    private static function resume(SpoolStore $spool, JournalPosition $other, string $base, string $from, LoggerInterface $logger): void
    {
        $own = $spool->journalPosition();
        $segments = Journal::segments(Journal::dirFor($base));
        if (!$own->isBefore($other) || $segments === [] || $other->segment > $segments[\count($segments) - 1]) {
            return;
        }
        $spool->commit([], null, $other);
        $logger->notice('This journal was taken in by another spool up to a later position: resuming after it, not taking its requests twice', ['from' => $from, 'position' => $other->segment . ':' . $other->offset, 'was' => $own->segment . ':' . $own->offset]);
    }

    /**
     * Waiting and retrying requests of the SQLite spool, into Redis with their age and
     * Idempotency-Key, then deleted from SQLite: at least once (a kill between the two moves
     * them again on the next start).
     *
     * @throws SpoolUnavailable
     * @throws \PDOException
     */
    private static function move(Spool $sqlite, SpoolStore $redis, string $base, LoggerInterface $logger): void
    {
        $moved = 0;
        while (($requests = $sqlite->due(\PHP_FLOAT_MAX, self::MOVE_BATCH, [])) !== []) {
            $redis->commit(array_map(static fn(SpooledRequest $r): SpooledRequest => $r->withId(0), $requests));
            $done = new Outcomes();
            $done->delivered = array_map(static fn(SpooledRequest $r): int => $r->id, $requests);
            $sqlite->commit([], $done);
            $moved += \count($requests);
        }
        $dead = SpoolReader::open($base)->counts()['dead'];
        if ($moved > 0 || $dead > 0) {
            $logger->notice('Requests waiting in the SQLite spool beside this journal were moved into the fleet\'s Redis spool', ['spool' => $base, 'moved' => $moved, 'dead_letters_left' => $dead, 'dead_letters_command' => 'relay:failed --spool=' . $base]);
        }
    }
}
