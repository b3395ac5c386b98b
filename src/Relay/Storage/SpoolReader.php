<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Storage;

use WarmHttp\Relay\Worker\JournalReader;

/**
 * What the operating commands (relay:status, relay:failed, relay:retry) and /metrics read or
 * change in the spool. Safe while the relay runs: WAL lets readers and one writer proceed.
 *
 * @internal
 */
final class SpoolReader implements SpoolInspector
{
    public function __construct(private readonly \PDO $db, private readonly ?string $journalDir = null) {}

    public static function open(string $path): self
    {
        if (!is_file($path)) {
            throw new SpoolUnavailable(\sprintf('No spool at "%s"; pass the relay\'s --spool=PATH.', $path));
        }
        $db = new \PDO('sqlite:' . $path, null, null, [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_EXCEPTION]);
        $db->exec('PRAGMA busy_timeout = 5000');

        return new self($db, Journal::dirFor($path));
    }

    /**
     * @param \Closure(int): int|null $inJournal given the spool's `journal_taken` counter, how many
     *                                          acknowledged records still wait in the journal; null:
     *                                          count them by reading the journal (relay:status)
     *
     * @return array{pending: int, retrying: int, dead: int, delivered: int, dead_lettered: int, oldest_age_seconds: float}
     */
    public function counts(?\Closure $inJournal = null): array
    {
        // Each from an index, none from the rows (a scan of 50,000 spooled bodies took 28 ms of
        // the front's loop per scrape): retrying from a partial index of the rows that failed,
        // the oldest as the first row taken in (a row relay:retry requeued keeps its place).
        $row = $this->query('SELECT (SELECT COUNT(*) FROM pending), (SELECT COUNT(*) FROM pending WHERE attempts > 0), (SELECT created_at FROM pending ORDER BY id LIMIT 1)')->fetch(\PDO::FETCH_NUM);
        /** @var array<string, int|string> $counters */
        $counters = $this->query('SELECT name, value FROM counters')->fetchAll(\PDO::FETCH_KEY_PAIR);
        $dead = $this->query('SELECT COUNT(*) FROM dead')->fetchColumn();
        /** @var array{int|string, int|string|null, float|string|null} $row */
        $row = \is_array($row) ? $row : [0, 0, null];

        $inJournal = $inJournal !== null ? max(0, $inJournal((int) ($counters['journal_taken'] ?? 0))) : $this->journalBacklog($counters);

        return [
            // acknowledged but not yet taken from the journal into the spool count as pending
            'pending' => (int) $row[0] + $inJournal,
            'retrying' => (int) $row[1],
            'dead' => is_numeric($dead) ? (int) $dead : 0,
            'delivered' => (int) ($counters['delivered'] ?? 0),
            'dead_lettered' => (int) ($counters['dead_lettered'] ?? 0),
            'oldest_age_seconds' => $row[2] === null ? 0.0 : round(microtime(true) - (float) $row[2], 3),
        ];
    }

    /** @param array<string, int|string> $counters */
    private function journalBacklog(array $counters): int
    {
        $position = new JournalPosition((int) ($counters['journal_segment'] ?? 0), (int) ($counters['journal_offset'] ?? 0));

        return $this->journalDir === null ? 0 : (new JournalReader($this->journalDir))->backlog($position);
    }

    /**
     * How many journal records the spool has taken in so far, and how many more follow its
     * position in the journal: their sum is what the journal has ever held, the baseline the
     * front counts its appends from.
     */
    public function journalTotal(): int
    {
        /** @var array<string, int|string> $counters */
        $counters = $this->query('SELECT name, value FROM counters')->fetchAll(\PDO::FETCH_KEY_PAIR);

        return (int) ($counters['journal_taken'] ?? 0) + $this->journalBacklog($counters);
    }

    private function query(string $sql): \PDOStatement
    {
        $statement = $this->db->query($sql);
        \assert($statement !== false); // ERRMODE_EXCEPTION: a failure throws instead

        return $statement;
    }

    /** @return list<array{id: int, method: string, uri: string, attempts: int, failed_at: float, last_error: string}> */
    public function deadLetters(int $limit = 100): array
    {
        $select = $this->db->prepare('SELECT id, method, uri, attempts, failed_at, last_error FROM dead ORDER BY id LIMIT ?');
        $select->execute([$limit]);
        $rows = [];
        foreach ($select->fetchAll(\PDO::FETCH_NUM) as $row) {
            /** @var array{int|string, string, string, int|string, float|string, string|null} $row */
            $rows[] = ['id' => (int) $row[0], 'method' => $row[1], 'uri' => $row[2], 'attempts' => (int) $row[3], 'failed_at' => (float) $row[4], 'last_error' => (string) $row[5]];
        }

        return $rows;
    }

    /**
     * Moves dead letters back to the queue, due now, with a fresh attempt count and age; the
     * Idempotency-Key stays, so a receiver that did get an earlier attempt can drop the copy.
     *
     * @param list<int>|null $ids null: all of them
     *
     * @return int how many were requeued
     */
    public function retry(?array $ids): int
    {
        $where = $ids === null ? '1' : 'id IN (' . implode(',', array_map('intval', $ids ?: [0])) . ')';
        $this->db->beginTransaction();
        // Due at once (0), whatever the worker's clock says; aged from the later of the wall
        // clock and the worker's last known time (SpoolClock), so a clock set back does not
        // make a requeued request look a day old.
        $clock = $this->query("SELECT value FROM counters WHERE name = 'clock_ms'")->fetchColumn();
        $now = max(microtime(true), is_numeric($clock) ? (int) $clock / 1000 : 0.0);
        $moved = $this->db->exec("INSERT INTO pending (id, method, uri, headers, body, idempotency_key, attempts, next_attempt_at, created_at, last_error)
            SELECT id, method, uri, headers, body, idempotency_key, 0, 0, $now, last_error FROM dead WHERE $where");
        $this->db->exec("DELETE FROM dead WHERE $where");
        $this->db->commit();

        return (int) $moved;
    }

    public function relays(): array
    {
        return [];
    }
}
