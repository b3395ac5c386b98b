<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Storage;

use WarmHttp\Relay\Worker\Outcomes;

/**
 * The spool's tables and the SQL that moves rows between them.
 *
 * @internal
 */
final class SpoolSchema
{
    private const TABLES = <<<'SQL'
        CREATE TABLE IF NOT EXISTS pending (
            id INTEGER PRIMARY KEY AUTOINCREMENT, method TEXT NOT NULL, uri TEXT NOT NULL,
            headers TEXT NOT NULL, body BLOB NOT NULL, idempotency_key TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at REAL NOT NULL, created_at REAL NOT NULL,
            last_error TEXT
        );
        CREATE INDEX IF NOT EXISTS pending_due ON pending (next_attempt_at);
        CREATE INDEX IF NOT EXISTS pending_retrying ON pending (attempts) WHERE attempts > 0;
        CREATE TABLE IF NOT EXISTS dead (
            id INTEGER PRIMARY KEY, method TEXT NOT NULL, uri TEXT NOT NULL, headers TEXT NOT NULL,
            body BLOB NOT NULL, idempotency_key TEXT NOT NULL, attempts INTEGER NOT NULL,
            created_at REAL NOT NULL, failed_at REAL NOT NULL, last_error TEXT
        );
        CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
        INSERT OR IGNORE INTO counters (name, value) VALUES ('delivered', 0), ('dead_lettered', 0), ('journal_taken', 0);
        SQL;

    public static function create(\PDO $db): void
    {
        $db->exec(self::TABLES);
    }

    /** @param array{int, string, string, string, string, string, int, float} $row */
    public static function hydrate(array $row): SpooledRequest
    {
        return new SpooledRequest((int) $row[0], $row[1], $row[2], RequestBytes::decodeHeaders($row[3]), (string) $row[4], $row[5], (int) $row[6], (float) $row[7]);
    }

    /** @param array<string, \PDOStatement|false> $cache */
    public static function applyOutcomes(\PDO $db, array &$cache, Outcomes $outcomes): void
    {
        $delete = $cache['delete'] ??= $db->prepare('DELETE FROM pending WHERE id = ?');
        foreach ($outcomes->delivered as $id) {
            $delete->execute([$id]);
        }
        $retry = $cache['retry'] ??= $db->prepare('UPDATE pending SET attempts = ?, next_attempt_at = ?, last_error = ? WHERE id = ?');
        foreach ($outcomes->retries as $id => [$next, $attempts, $error]) {
            $retry->execute([$attempts, $next, $error, $id]);
        }
        $bury = $cache['bury'] ??= $db->prepare('INSERT OR REPLACE INTO dead SELECT id, method, uri, headers, body, idempotency_key, ?, created_at, ?, ? FROM pending WHERE id = ?');
        foreach ($outcomes->dead as $id => [$attempts, $error]) {
            $bury->execute([$attempts, microtime(true), $error, $id]);
            $delete->execute([$id]);
        }
        $count = $cache['count'] ??= $db->prepare('UPDATE counters SET value = value + ? WHERE name = ?');
        $count->execute([\count($outcomes->delivered), 'delivered']);
        $count->execute([\count($outcomes->dead), 'dead_lettered']);
    }
}
