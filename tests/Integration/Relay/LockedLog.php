<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

/**
 * A log the test origins' routers append to under an exclusive lock (FILE_APPEND | LOCK_EX),
 * read under a shared one: read without it, a line still being written came back torn.
 */
final class LockedLog
{
    /** @return list<string> the log's lines, empty ones left out */
    public static function lines(string $path): array
    {
        $file = fopen($path, 'r');
        \assert($file !== false);
        flock($file, \LOCK_SH);
        $log = (string) stream_get_contents($file);
        fclose($file);

        return array_values(array_filter(explode("\n", $log), static fn(string $line): bool => $line !== ''));
    }
}
