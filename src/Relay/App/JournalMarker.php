<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

/**
 * The fallback journal's "next-scan" marker: its mtime says when the journal next needs a look.
 * Read at the end of every unit of work of every process with a relay Client (one stat(), about
 * 1 µs), so a process that dispatched nothing still picks up what others left; apart from
 * FallbackJournal so that check loads one small class, not the journal (a PHP-FPM request that
 * handed its request to the relay loads neither FallbackJournal nor FallbackSender).
 *
 * @internal
 */
final class JournalMarker
{
    /** Even with nothing due, some process looks this often, so an entry whose signal was lost in a race still goes out. */
    public const RECHECK_SECONDS = 60;

    private const NAME = 'next-scan';

    /** Per user, so no other user's process can read or plant entries; under the temp directory. */
    public static function defaultDirectory(): string
    {
        // posix_geteuid() asked here where it exists: ProcessUser's file is then not loaded at the
        // end of every PHP-FPM request with a relay Client (~3 k instructions, callgrind).
        return rtrim(sys_get_temp_dir(), '/') . '/warmhttp-' . (\function_exists('posix_geteuid') ? posix_geteuid() : ProcessUser::id()) . '/fallback';
    }

    /** The marker's path in the journal directory $dir. */
    public static function in(string $dir): string
    {
        return $dir . '/' . self::NAME;
    }

    /**
     * Whether the journal in $dir needs a look at $now: the marker's time has come, or is further
     * ahead than any backoff (the wall clock went back: look now). No marker: nothing journaled.
     */
    public static function due(string $dir, float $now, float $maxDelay): bool
    {
        $path = self::in($dir);
        clearstatcache(true, $path);
        // file_exists() first: with no marker (nothing journaled, most ends of a unit of work)
        // filemtime()'s warning, silenced, was still formatted and HTML-escaped under PHP-FPM
        // (~5 k instructions, callgrind). The second call reads the stat file_exists() cached.
        $at = file_exists($path) ? @filemtime($path) : false;

        return $at !== false && ($at <= $now || $at > $now + $maxDelay + self::RECHECK_SECONDS);
    }
}
