<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Storage;

use Psr\Log\LoggerInterface;

/**
 * The spool's check at start-up. A damaged SQLite file used to give an endless error loop in
 * the worker and a dead front on the next GET /metrics. Now the front runs PRAGMA quick_check
 * before anything else opens the spool; a damaged file is moved aside (kept, with its WAL, for a
 * person to look at) and every row SQLite can still read is copied into a fresh spool, so
 * the relay starts with what could be saved and says what it found.
 *
 * @internal
 */
final class SpoolIntegrity
{
    /** Tables copied from a damaged spool, in this order (counters hold the journal position). */
    private const TABLES = ['counters', 'pending', 'dead'];

    /** @throws SpoolUnavailable the damaged spool could not even be moved aside */
    public static function ensure(string $path, bool $fsync, LoggerInterface $logger): void
    {
        if (!is_file($path)) {
            return;
        }
        $problems = self::problems($path);
        if ($problems === []) {
            return;
        }
        $aside = self::moveAside($path);
        $kept = self::salvage($aside, Spool::open($path, $fsync), $path);
        $logger->error('The spool was damaged: moved it aside and started a new one with every row that could be read', [
            'spool' => $path,
            'found' => \array_slice($problems, 0, 5),
            'damaged_copy' => $aside,
            'rows_kept' => $kept,
        ]);
    }

    /** @return list<string> what quick_check reported; [] when the file is sound */
    private static function problems(string $path): array
    {
        try {
            $db = new \PDO('sqlite:' . $path, null, null, [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_EXCEPTION]);
            $db->exec('PRAGMA busy_timeout = 5000');
            $check = $db->query('PRAGMA quick_check');
            \assert($check !== false);
            /** @var list<string> $rows */
            $rows = $check->fetchAll(\PDO::FETCH_COLUMN);
            $check->closeCursor();
            // the tables must be readable too: quick_check passes a file whose schema is gone
            $tables = $db->query('SELECT COUNT(*) FROM pending');
            \assert($tables !== false); // ERRMODE_EXCEPTION: a failure throws instead
            $tables->closeCursor();

            return $rows === ['ok'] ? [] : $rows;
        } catch (\PDOException $e) {
            return [$e->getMessage()];
        }
    }

    private static function moveAside(string $path): string
    {
        $aside = \sprintf('%s.damaged-%s', $path, date('Ymd-His'));
        if (!@rename($path, $aside)) {
            throw new SpoolUnavailable(\sprintf('The spool "%s" is damaged and cannot be moved aside to %s: %s. Move it away by hand and start the relay again.', $path, $aside, error_get_last()['message'] ?? 'unknown error'));
        }
        foreach (['-wal', '-shm'] as $suffix) {
            if (is_file($path . $suffix)) {
                @rename($path . $suffix, $aside . $suffix);
            }
        }

        return $aside;
    }

    /** @return array<string, int> table => rows copied into the new spool */
    private static function salvage(string $aside, Spool $fresh, string $path): array
    {
        unset($fresh); // created the schema; the copy goes through a connection of its own
        $db = new \PDO('sqlite:' . $path, null, null, [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_EXCEPTION]);
        $kept = [];
        try {
            $db->exec('ATTACH DATABASE ' . $db->quote($aside) . ' AS damaged');
        } catch (\PDOException) {
            return array_fill_keys(self::TABLES, 0); // not even a database: nothing to copy
        }
        foreach (self::TABLES as $table) {
            $kept[$table] = self::copyTable($db, $table);
        }
        // SQLite copies a whole table (INSERT ... SELECT * of the same schema) with its index
        // entries as they were: the damaged spool's index gaps came along ("row 22 missing from
        // index pending_due") and the new spool failed its first write. Rebuilt from the rows.
        $db->exec('DETACH DATABASE damaged');
        $db->exec('REINDEX');

        return $kept;
    }

    /** All rows at once; when SQLite stumbles on a damaged page, row by row. */
    private static function copyTable(\PDO $db, string $table): int
    {
        $key = $table === 'counters' ? 'name' : 'id';
        try {
            // In one transaction, rolled back whole if a damaged page stops it half-way.
            $db->beginTransaction();
            $copied = (int) $db->exec("INSERT OR REPLACE INTO main.$table SELECT * FROM damaged.$table");
            $db->commit();

            return $copied;
        } catch (\PDOException) {
            $db->rollBack(); // some rows can still be read one at a time
        }
        try {
            $select = $db->query("SELECT $key FROM damaged.$table");
            \assert($select !== false);
            $keys = $select->fetchAll(\PDO::FETCH_COLUMN);
        } catch (\PDOException) {
            return 0;
        }
        $copied = 0;
        foreach ($keys as $value) {
            $row = self::readRow($db, $table, $key, $value);
            if ($row !== null) {
                self::writeRow($db, $table, $row);
                ++$copied;
            }
        }

        return $copied;
    }

    /**
     * A row read whole into PHP before it is written: an INSERT ... SELECT of a row whose
     * overflow page is damaged failed after the row was in the table and before its index entry,
     * and SQLite kept that half (a one-row insert has no statement journal): the new spool was
     * malformed in its turn ("row missing from index pending_due").
     *
     * @return array<string, mixed>|null null when the row sits on a damaged page: it is lost
     */
    private static function readRow(\PDO $db, string $table, string $key, mixed $value): ?array
    {
        try {
            $read = $db->prepare("SELECT * FROM damaged.$table WHERE $key = ?");
            $read->execute([$value]);
            /** @var array<string, mixed>|false $row */
            $row = $read->fetch(\PDO::FETCH_ASSOC);
            $read->closeCursor();
        } catch (\PDOException) {
            return null;
        }

        return $row === false ? null : $row;
    }

    /** @param array<string, mixed> $row */
    private static function writeRow(\PDO $db, string $table, array $row): void
    {
        $columns = array_keys($row);
        $db->prepare(\sprintf('INSERT OR REPLACE INTO main.%s (%s) VALUES (%s)', $table, implode(', ', $columns), implode(', ', array_fill(0, \count($columns), '?'))))
            ->execute(array_values($row));
    }
}
