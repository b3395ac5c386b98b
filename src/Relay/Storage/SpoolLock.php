<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Storage;

/**
 * One relay per spool: an exclusive flock on a file beside the spool, held by the front process
 * for its whole life and taken before the journal, the spool or the socket are touched. A
 * second relay started on the same spool used to open a journal segment of its own before it
 * failed on the socket; the running relay's worker then took that empty segment for the newest,
 * deleted the one still being written, and every later acknowledged request was lost.
 *
 * The descriptor is close-on-exec ('e'), so the delivery worker does not inherit it: a front
 * killed with SIGKILL frees the lock at once, even while its worker is still winding down (the
 * worker has its own lock, see Assembly::worker).
 *
 * @internal
 */
final class SpoolLock
{
    /** @param resource $file */
    private function __construct(private readonly mixed $file) {}

    public function __clone()
    {
        throw new \LogicException('A SpoolLock is held once; it cannot be cloned.');
    }

    public static function pathFor(string $spoolPath): string
    {
        return $spoolPath . '.lock';
    }

    /** @throws SpoolUnavailable another relay holds the spool, or the lock file cannot be opened */
    public static function acquire(string $spoolPath): self
    {
        $path = self::pathFor($spoolPath);
        $file = @fopen($path, 'c+e');
        if ($file === false) {
            throw new SpoolUnavailable(\sprintf('Cannot open the relay lock file "%s" beside the spool (--spool=%s): %s.', $path, $spoolPath, error_get_last()['message'] ?? 'unknown error'));
        }
        if (!flock($file, \LOCK_EX | \LOCK_NB)) {
            $holder = trim((string) stream_get_contents($file));
            fclose($file);

            throw new SpoolUnavailable(\sprintf(
                'Another relay%s already uses the spool "%s" (it holds %s). Stop it first, or give this relay its own --spool; nothing was changed.',
                ctype_digit($holder) ? ' (pid ' . $holder . ')' : '',
                $spoolPath,
                $path,
            ));
        }
        // The pid is only for the message above; the lock is the flock, not the file's content.
        ftruncate($file, 0);
        fwrite($file, (string) getmypid());
        fflush($file);

        return new self($file);
    }

    public function release(): void
    {
        flock($this->file, \LOCK_UN);
    }
}
