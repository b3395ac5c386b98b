<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Console;

/**
 * The relay's files hold what callers sent, Authorization headers included: the spool and
 * SQLite's -wal and -shm, the journal's segments, the metrics file, the locks. The relay runs
 * with umask 0077, so everything it creates is 0600 (directories 0700). Files an older relay
 * created 0644 are tightened at start: SQLite gives a new -wal the database file's mode, so a
 * 0644 spool would keep handing out readable write-ahead logs.
 *
 * @internal
 */
final class StateFiles
{
    /** What the relay runs with: nothing it creates is readable by group or other. */
    public const UMASK = 0o077;

    /**
     * What the relay keeps beside its spool (or a fleet relay's journal base): SQLite's files,
     * the locks, the journal directory, the metrics file, the socket record, a fleet relay's id
     * and forwarding position; a damaged spool moved aside is `.damaged-<time>`.
     */
    private const SUFFIXES = ['', '-wal', '-shm', '-journal', '.lock', '.worker.lock', '.journal', '.metrics.json', '.metrics.json.tmp', '.socket', '.socket.tmp', '.relay-id', '.forwarded'];

    /**
     * Removes group and other permissions from the relay's own files beside the spool (the
     * spool's path and every name it prefixes, one level into directories such as the journal).
     * The socket keeps its 0660: the web server's group connects through it.
     *
     * @return list<string> the paths whose mode changed
     */
    public static function tighten(string $spool): array
    {
        $changed = [];
        foreach (glob(self::escaped($spool) . '*') ?: [] as $path) {
            if (!self::isOurs(substr($path, \strlen($spool)))) {
                continue; // a neighbour that merely shares the prefix (`relay.out` beside `relay`)
            }
            $changed = [...$changed, ...self::tightenOne($path)];
            if (is_dir($path) && !is_link($path)) {
                foreach (glob(self::escaped($path) . '/*') ?: [] as $inside) {
                    $changed = [...$changed, ...self::tightenOne($inside)];
                }
            }
        }

        return $changed;
    }

    /** Whether what follows the spool's path names one of the relay's own files. */
    private static function isOurs(string $suffix): bool
    {
        return \in_array($suffix, self::SUFFIXES, true) || str_starts_with($suffix, '.damaged-');
    }

    /** @return list<string> */
    private static function tightenOne(string $path): array
    {
        $stat = @lstat($path);
        $type = $stat === false ? 0 : $stat['mode'] & 0o170000;
        // Only regular files and directories of ours: never a socket, never through a symlink.
        if ($stat === false || $stat['uid'] !== posix_geteuid() || ($type !== 0o100000 && $type !== 0o040000) || ($stat['mode'] & 0o077) === 0) {
            return [];
        }

        return @chmod($path, $stat['mode'] & 0o7700) ? [$path] : [];
    }

    private static function escaped(string $path): string
    {
        return (string) preg_replace('/[*?\[\]\\\\]/', '\\\\$0', $path);
    }
}
