<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Storage;

use WarmHttp\Relay\Worker\Outcomes;

/**
 * The relay's durable queue: one SQLite file in WAL mode, owned by the delivery worker. The
 * front process acknowledges a request once it is in the journal; the worker takes journal
 * records in here in batches, in one transaction with the round's delivery outcomes and the
 * new journal position (group commit: one WAL write, and one fsync with synchronous=FULL).
 *
 * @internal
 */
final class Spool implements SpoolStore
{
    private const SQLITE_FULL = 13;

    /** @var array<string, \PDOStatement|false> */
    private array $statements = [];

    private function __construct(private readonly \PDO $db, private readonly string $path) {}

    /**
     * @param bool $fsync synchronous=FULL: a commit survives power loss (one fsync per group);
     *                    NORMAL: it survives the relay being killed, not the machine crashing
     */
    public static function open(string $path, bool $fsync = true): self
    {
        $dir = \dirname($path);
        if (!is_dir($dir) && !@mkdir($dir, 0o750, true)) {
            throw new SpoolUnavailable(\sprintf('Cannot create the spool directory "%s" (--spool=%s).', $dir, $path));
        }
        try {
            $db = new \PDO('sqlite:' . $path, null, null, [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_EXCEPTION]);
            $db->exec('PRAGMA busy_timeout = 5000');
            // Only takes on a new spool (before its tables): lets releaseFreePages() give the room
            // of delivered rows back to the disk, where the front's --spool-reserve check sees it.
            $db->exec('PRAGMA auto_vacuum = INCREMENTAL');
            $db->exec('PRAGMA journal_mode = WAL');
            $db->exec('PRAGMA synchronous = ' . ($fsync ? 'FULL' : 'NORMAL'));
            // The WAL is reset after each checkpoint; 256 pages (1 MiB) instead of 1000 bounds
            // the room the spool needs beyond its rows, so --spool-reserve can cover it.
            $db->exec('PRAGMA wal_autocheckpoint = 256');
            // The WAL is cut back to 1 MiB when it is reset (4 MiB before): on a 4 MiB disk with a
            // 2 MiB reserve, a WAL kept at its high mark held the front at 507 after every row
            // was delivered.
            $db->exec('PRAGMA journal_size_limit = 1048576');
            SpoolSchema::create($db);
        } catch (\PDOException $e) {
            throw new SpoolUnavailable(\sprintf('Cannot open the spool "%s": %s', $path, $e->getMessage()), 0, $e);
        }

        return new self($db, $path);
    }

    /**
     * Stores every new entry and applies the round's delivery outcomes, in one transaction.
     * The entries are journal records: the `journal_taken` counter grows by their number, so
     * /metrics can tell how many acknowledged records still wait in the journal without reading it.
     *
     * @param list<SpooledRequest> $entries
     * @param float|null           $clock   the worker's SpoolClock now, kept for its next start
     *
     * @return list<SpooledRequest> the entries, with their ids
     *
     * @throws SpoolUnavailable nothing was stored
     */
    public function commit(array $entries, ?Outcomes $outcomes = null, ?JournalPosition $taken = null, ?float $clock = null): array
    {
        /** @var list<SpooledRequest> */
        return $this->transaction(function () use ($entries, $outcomes, $taken, $clock): array {
            $stored = $entries === [] ? [] : $this->insert($entries);
            if ($outcomes !== null && !$outcomes->isEmpty()) {
                SpoolSchema::applyOutcomes($this->db, $this->statements, $outcomes);
            }
            if ($taken !== null) {
                $this->setCounter('journal_segment', $taken->segment);
                $this->setCounter('journal_offset', $taken->offset);
            }
            if ($entries !== []) {
                $this->statement("UPDATE counters SET value = value + ? WHERE name = 'journal_taken'")->execute([\count($entries)]);
            }
            if ($clock !== null) {
                $this->setCounter('clock_ms', (int) ($clock * 1000));
            }

            return $stored;
        });
    }

    /**
     * Gives the room of delivered and dead-lettered rows back to the disk, where the front's
     * --spool-reserve check sees it: the free pages (once more than $minPages of 4 KiB), then
     * the WAL, emptied by a checkpoint. For a spool that has drained: the worker calls it with
     * nothing in flight. Best effort: on a full disk the vacuum itself may fail, and the pages
     * stay free inside the spool for new rows. Spools created before auto_vacuum keep their
     * pages (VACUUM them by hand, relay stopped).
     */
    public function releaseFreePages(int $minPages = 64): void
    {
        try {
            $free = $this->db->query('PRAGMA freelist_count');
            \assert($free !== false);
            $pages = $free->fetchColumn();
            $free->closeCursor();
            if (is_numeric($pages) && (int) $pages > $minPages) {
                $this->db->exec('PRAGMA incremental_vacuum');
            }
        } catch (\PDOException) {
            // the room stays inside the spool, where new rows reuse it
        }
        $this->checkpoint(); // the file shrinks at a checkpoint, which also empties the WAL
    }

    /**
     * Copies the WAL into the database file and empties it. After a write failed for want of
     * room, the WAL is where the room went: frames of transactions that never committed, and
     * committed ones no checkpoint could move while writes kept failing (a checkpoint runs only
     * after a commit). Without this the WAL stayed at its high mark and every later write,
     * however small, needed more disk: the spool was stuck after the disk had room again.
     *
     * @return bool false: it failed for want of room
     */
    public function checkpoint(): bool
    {
        try {
            $checkpoint = $this->db->query('PRAGMA wal_checkpoint(TRUNCATE)');
            \assert($checkpoint !== false);
            $checkpoint->closeCursor();

            return true; // done, or a reader in the way (it is not the disk)
        } catch (\PDOException) {
            return false; // no room to move the WAL into the database file
        }
    }

    /**
     * Bytes new rows can take without a full disk: free on the spool's disk, and the free pages
     * inside the spool (delivered rows' room, reused before the file grows). Null: unknown.
     */
    public function room(): ?int
    {
        $disk = @disk_free_space(\dirname($this->path));
        if ($disk === false) {
            return null;
        }
        try {
            $pages = $this->db->query('PRAGMA freelist_count');
            \assert($pages !== false);
            $free = $pages->fetchColumn();
            $pages->closeCursor();
        } catch (\PDOException) {
            $free = 0;
        }

        return (int) $disk + (is_numeric($free) ? (int) $free * 4096 : 0);
    }

    /** The latest SpoolClock time a worker committed with; null before any did. */
    public function lastClock(): ?float
    {
        $select = $this->statement("SELECT value FROM counters WHERE name = 'clock_ms'");
        $select->execute();
        $value = $select->fetchColumn();
        $select->closeCursor();

        return is_numeric($value) ? (int) $value / 1000 : null;
    }

    /** How far the journal has been taken in. */
    public function journalPosition(): JournalPosition
    {
        $select = $this->statement("SELECT name, value FROM counters WHERE name IN ('journal_segment', 'journal_offset')");
        $select->execute();
        /** @var array<string, int> $values */
        $values = $select->fetchAll(\PDO::FETCH_KEY_PAIR);

        return new JournalPosition((int) ($values['journal_segment'] ?? 0), (int) ($values['journal_offset'] ?? 0));
    }

    private function setCounter(string $name, int $value): void
    {
        $this->statement('INSERT OR REPLACE INTO counters (name, value) VALUES (?, ?)')->execute([$name, $value]);
    }

    /**
     * Due requests, oldest due first: at most $limit of them, and bodies of at most $maxBytes
     * together (one at least), so a page of large bodies does not fill the worker's memory.
     *
     * @param array<int, true> $skip ids in flight or already waiting in memory
     *
     * @return list<SpooledRequest>
     */
    public function due(float $now, int $limit, array $skip, int $maxBytes = 32 * 1048576): array
    {
        // Ids first, from the index: rows in flight are skipped before their bodies are read.
        $ids = $this->statement('SELECT id, length(body) FROM pending WHERE next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?');
        $ids->execute([$now, $limit + \count($skip)]);
        $wanted = [];
        $bytes = 0;
        /** @var list<array{mixed, mixed}> $candidates */
        $candidates = $ids->fetchAll(\PDO::FETCH_NUM);
        foreach ($candidates as [$id, $length]) {
            $id = is_numeric($id) ? (int) $id : 0;
            if (isset($skip[$id])) {
                continue;
            }
            $bytes += is_numeric($length) ? (int) $length : 0;
            if (\count($wanted) === $limit || ($wanted !== [] && $bytes > $maxBytes)) {
                break;
            }
            $wanted[] = $id;
        }
        if ($wanted === []) {
            return [];
        }
        $rows = $this->db->query('SELECT id, method, uri, headers, body, idempotency_key, attempts, created_at FROM pending WHERE id IN (' . implode(',', $wanted) . ') ORDER BY next_attempt_at, id');
        \assert($rows !== false);
        $due = [];
        foreach ($rows->fetchAll(\PDO::FETCH_NUM) as $row) {
            /** @var array{int, string, string, string, string, string, int, float} $row */
            $due[] = SpoolSchema::hydrate($row);
        }

        return $due;
    }

    /** When the next request falls due after $now; null when none waits. */
    public function nextDueAfter(float $now): ?float
    {
        $select = $this->statement('SELECT MIN(next_attempt_at) FROM pending WHERE next_attempt_at > ?');
        $select->execute([$now]);
        $value = $select->fetchColumn();
        // A statement left mid-result holds a read transaction open, and an open reader stops
        // every checkpoint from resetting the WAL: the file then grows until the disk is full.
        $select->closeCursor();

        return is_numeric($value) ? (float) $value : null;
    }

    /**
     * @param list<SpooledRequest> $entries
     *
     * @return list<SpooledRequest>
     */
    private function insert(array $entries): array
    {
        $insert = $this->statement('INSERT INTO pending (method, uri, headers, body, idempotency_key, attempts, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?)');
        $stored = [];
        foreach ($entries as $entry) {
            $insert->bindValue(1, $entry->method);
            $insert->bindValue(2, $entry->uri);
            $insert->bindValue(3, RequestBytes::encodeHeaders($entry->headers), \PDO::PARAM_LOB);
            $insert->bindValue(4, $entry->body, \PDO::PARAM_LOB);
            $insert->bindValue(5, $entry->idempotencyKey);
            $insert->bindValue(6, $entry->createdAt);
            $insert->bindValue(7, $entry->createdAt);
            $insert->execute();
            $stored[] = $entry->withId((int) $this->db->lastInsertId());
        }

        return $stored;
    }

    /**
     * BEGIN/COMMIT by hand, not PDO's transaction API: after SQLITE_FULL, SQLite has already
     * rolled back, PDO still believes a transaction is open, and every later
     * beginTransaction() fails ("There is already an active transaction"; PHP 8.2).
     *
     * @throws SpoolUnavailable
     */
    private function transaction(\Closure $work): mixed
    {
        try {
            $this->db->exec('BEGIN IMMEDIATE');
            $result = $work();
            $this->db->exec('COMMIT');

            return $result;
        } catch (\PDOException|\JsonException $e) {
            try {
                $this->db->exec('ROLLBACK');
            } catch (\PDOException) {
                // Nothing was open any more: SQLite rolls back itself on SQLITE_FULL.
            }
            $full = $e instanceof \PDOException && (($e->errorInfo[1] ?? null) === self::SQLITE_FULL || str_contains($e->getMessage(), 'full'));

            throw new SpoolUnavailable(($full ? 'The spool disk is full: ' : 'The spool could not store the request: ') . $e->getMessage(), 0, $e);
        }
    }

    private function statement(string $sql): \PDOStatement
    {
        $statement = $this->statements[$sql] ??= $this->db->prepare($sql);
        \assert($statement !== false);

        return $statement;
    }

    public function mayStart(string $origin, int $cap): bool
    {
        return true; // one worker per SQLite spool: its own count is the cap
    }

    public function settled(string $origin): void {}

    public function giveBack(array $ids): void {}

    public function heartbeat(): void {}

    public function journalGraceSeconds(): float
    {
        return 0.0; // a committed SQLite transaction is as durable as the journal it came from
    }

    public function gauges(int $inFlight, int $journalLagBytes): array
    {
        return []; // the front reads this spool's gauges itself (Assembly::gauges)
    }
}
