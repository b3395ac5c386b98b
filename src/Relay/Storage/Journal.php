<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Storage;

/**
 * Where the journal lives: a directory beside the spool file, of numbered segment files.
 *
 * @internal
 */
final class Journal
{
    public static function dirFor(string $spoolPath): string
    {
        return $spoolPath . '.journal';
    }

    public static function ensureDir(string $dir): void
    {
        if (!is_dir($dir) && !@mkdir($dir, 0o750, true) && !is_dir($dir)) {
            throw new SpoolUnavailable(\sprintf('Cannot create the journal directory "%s".', $dir));
        }
    }

    /** Copies of segments found damaged, kept for a person to look at (JournalReader). */
    public static function quarantineDir(string $dir): string
    {
        return $dir . '/quarantine';
    }

    public static function segmentPath(string $dir, int $segment): string
    {
        return \sprintf('%s/%010d.log', $dir, $segment);
    }

    /** @return list<int> segment numbers present, ascending */
    public static function segments(string $dir): array
    {
        $segments = [];
        // GLOB_MARK ends directories in '/': something in the way of a segment's name is not one
        foreach (glob($dir . '/*.log', \GLOB_MARK) ?: [] as $path) {
            if (!str_ends_with($path, '/')) {
                $segments[] = (int) basename($path, '.log');
            }
        }
        sort($segments);

        return $segments;
    }

    public static function lastSegment(string $dir): int
    {
        $segments = self::segments($dir);

        return $segments === [] ? 0 : $segments[\count($segments) - 1];
    }
}
