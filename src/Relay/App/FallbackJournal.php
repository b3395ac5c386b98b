<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

/**
 * The app's fallback journal: a directory with one file per request the relay did not take,
 * written (temp file, fsync, rename, directory fsync) before dispatch() returns, so a request
 * survives the process. Files are 0600 in a directory only this user may write: an entry
 * carries its destination policy, so whoever can add one could aim the app anywhere.
 *
 * An entry's name carries its state, `<created µs>-<random>.<attempts>.<not before>.req`:
 * rescheduling is a rename, which keeps the inode and so the flock of the process sending it.
 *
 * @internal
 */
final class FallbackJournal
{
    /** Entries at most; past that dispatch() keeps the request in memory and says so. */
    public const MAX_ENTRIES = 10_000;

    private const NAME = '/^(\d+)-([0-9a-f]{16})\.(\d+)\.(\d+)\.req$/D';

    /** The entry count is read from disk at most this often; appends in between count themselves. */
    private const RECOUNT_SECONDS = 1.0;

    /** An append takes milliseconds: a temp file this old belongs to a process that died. */
    private const STALE_TEMP_SECONDS = 3600;

    /** The soonest retry seen by the last scan, for the marker. */
    private float $soonest = \INF;

    private bool $checked = false;

    private int $entries = 0;

    private float $countedAt = -\INF;

    public function __construct(public readonly string $dir) {}

    /** Per user, so no other user's process can read or plant entries; under the temp directory. */
    public static function defaultDirectory(): string
    {
        return JournalMarker::defaultDirectory();
    }

    /** @throws JournalUnwritable */
    public function append(FallbackEntry $entry): void
    {
        $this->prepare();
        if ($this->count() >= self::MAX_ENTRIES) {
            throw new JournalUnwritable(\sprintf('the fallback journal %s holds %d entries, its limit: is the destination down for long, or nothing flushing it (Pool::reset() in worker mode)?', $this->dir, self::MAX_ENTRIES));
        }
        $name = \sprintf('%d-%s.0.0.req', (int) ($entry->request->createdAt * 1e6), bin2hex(random_bytes(8)));
        $this->writeDurably($name, $entry->encode());
        ++$this->entries;
        @touch(JournalMarker::in($this->dir), time());
    }

    /**
     * Whether a unit of work that journaled nothing should look at the journal: one stat() of
     * the marker (about 1 µs), so a process that dispatched nothing still picks up what others
     * left, without listing the directory on every request. A marker far in the future means
     * the wall clock went back: look now.
     */
    public function needsScan(float $now, float $maxDelay): bool
    {
        return JournalMarker::due($this->dir, $now, $maxDelay);
    }

    /** After a scan: the marker says when the soonest retry is due, or a recheck at the latest. */
    public function scanned(float $now): void
    {
        $at = (int) ceil(min($this->soonest, $now + JournalMarker::RECHECK_SECONDS));
        @touch(JournalMarker::in($this->dir), $at);
        $this->soonest = \INF;
    }

    /**
     * Names of entries due at $now, oldest first. A "not before" further ahead than any backoff
     * means the wall clock went back: due now, not frozen.
     *
     * @return list<string>
     */
    public function due(float $now, float $maxDelay, int $limit): array
    {
        if (!is_dir($this->dir)) {
            return []; // nothing was ever journaled here
        }
        $this->prepare();
        $due = [];
        foreach (scandir($this->dir) ?: [] as $name) {
            if (preg_match(self::NAME, $name, $m) !== 1) {
                $this->sweep($name, $now);
                continue;
            }
            if (\count($due) < $limit && ((int) $m[4] <= $now || (int) $m[4] > $now + $maxDelay)) {
                $due[] = $name;
            } else {
                $this->soonest = min($this->soonest, (int) $m[4] <= $now ? $now : (float) $m[4]);
            }
        }

        return $due;
    }

    /**
     * Locks and reads one entry; null when another process holds it or sent it meanwhile. A
     * damaged file is moved to dead/ and reported through $damaged.
     *
     * @param \Closure(string, string): void $damaged name, why
     */
    public function take(string $name, \Closure $damaged): ?FallbackLease
    {
        $path = $this->dir . '/' . $name;
        $handle = @fopen($path, 'r');
        if ($handle === false) {
            return null;
        }
        if (!flock($handle, \LOCK_EX | \LOCK_NB) || !self::stillAt($handle, $path)) {
            fclose($handle); // another process has it, or renamed or deleted it since we listed

            return null;
        }
        try {
            $entry = FallbackEntry::decode((string) stream_get_contents($handle), self::attemptsOf($name));
        } catch (\UnexpectedValueException $e) {
            $this->moveToDead($name, $e->getMessage());
            fclose($handle);
            $damaged($name, $e->getMessage());

            return null;
        }

        return new FallbackLease($name, $entry, $handle);
    }

    public function delivered(FallbackLease $lease): void
    {
        @unlink($this->dir . '/' . $lease->name);
        --$this->entries;
        $lease->release();
    }

    public function later(FallbackLease $lease, int $attempts, float $notBefore): void
    {
        preg_match(self::NAME, $lease->name, $m);
        $renamed = \sprintf('%s-%s.%d.%d.req', $m[1] ?? '0', $m[2] ?? bin2hex(random_bytes(8)), $attempts, (int) ceil($notBefore));
        @rename($this->dir . '/' . $lease->name, $this->dir . '/' . $renamed);
        $this->soonest = min($this->soonest, ceil($notBefore));
        $lease->release();
    }

    public function dead(FallbackLease $lease, string $reason): void
    {
        $this->moveToDead($lease->name, $reason);
        --$this->entries;
        $lease->release();
    }

    /** A temp file an append left when its process died between open and rename: never an entry. */
    private function sweep(string $name, float $now): void
    {
        $path = $this->dir . '/' . $name;
        if (str_starts_with($name, '.tmp-') && (int) @filemtime($path) < $now - self::STALE_TEMP_SECONDS) {
            @unlink($path);
        }
    }

    public static function attemptsOf(string $name): int
    {
        return preg_match(self::NAME, $name, $m) === 1 ? (int) $m[3] : 0;
    }

    private function moveToDead(string $name, string $reason): void
    {
        $dead = $this->dir . '/dead';
        if (!is_dir($dead)) {
            @mkdir($dead, 0700);
        }
        @rename($this->dir . '/' . $name, $dead . '/' . $name);
        @file_put_contents($dead . '/' . $name . '.reason', $reason . "\n");
    }

    /** @param resource $handle */
    private static function stillAt($handle, string $path): bool
    {
        $held = fstat($handle);
        clearstatcache(true, $path);
        $named = @stat($path);

        return $held !== false && $named !== false && $held['ino'] === $named['ino'] && $held['dev'] === $named['dev'];
    }

    private function count(): int
    {
        $now = hrtime(true) / 1e9;
        if ($now - $this->countedAt >= self::RECOUNT_SECONDS) {
            $this->entries = \count(preg_grep(self::NAME, scandir($this->dir) ?: []) ?: []);
            $this->countedAt = $now;
        }

        return $this->entries;
    }

    /** @throws JournalUnwritable */
    private function writeDurably(string $name, string $bytes): void
    {
        $temp = $this->dir . '/.tmp-' . $name;
        $handle = @fopen($temp, 'x');
        if ($handle === false) {
            throw new JournalUnwritable(\sprintf('cannot create %s: %s', $temp, error_get_last()['message'] ?? 'unknown error'));
        }
        chmod($temp, 0600); // before any byte of the request is in it
        $written = @fwrite($handle, $bytes);
        $synced = $written === \strlen($bytes) && fflush($handle) && fsync($handle);
        fclose($handle);
        if (!$synced || !@rename($temp, $this->dir . '/' . $name)) {
            @unlink($temp);
            throw new JournalUnwritable(\sprintf('cannot write %d bytes to the fallback journal %s (disk full?)', \strlen($bytes), $this->dir));
        }
        $dir = @fopen($this->dir, 'r');
        if ($dir !== false) {
            fsync($dir); // the rename itself must survive a crash
            fclose($dir);
        }
    }

    /** Creates the directory once per process and checks it is this user's alone. */
    private function prepare(): void
    {
        if ($this->checked) {
            return;
        }
        if (!is_dir($this->dir) && !@mkdir($this->dir, 0700, true) && !is_dir($this->dir)) {
            throw new JournalUnwritable(\sprintf('cannot create the fallback journal directory %s: %s. Set the Client option "relay_fallback_dir" to a directory this user may write.', $this->dir, error_get_last()['message'] ?? 'unknown error'));
        }
        self::checkOwnership($this->dir);
        if ($this->dir === self::defaultDirectory()) {
            self::checkOwnership(\dirname($this->dir)); // in /tmp: another user may have made it first
        }
        $this->checked = true;
    }

    private static function checkOwnership(string $dir): void
    {
        $stat = @lstat($dir);
        if ($stat === false || ($stat['mode'] & 0170000) !== 0040000) {
            throw new JournalUnwritable(\sprintf('the fallback journal directory %s is not a directory (a symlink?). Remove it, or set the Client option "relay_fallback_dir".', $dir));
        }
        if ($stat['uid'] !== ProcessUser::id() || ($stat['mode'] & 0022) !== 0) {
            throw new JournalUnwritable(\sprintf(
                'the fallback journal directory %s belongs to uid %d with mode %o; it must belong to this user (uid %d) and not be writable by others, or another user could read or plant requests. Remove it, or set the Client option "relay_fallback_dir".',
                $dir,
                $stat['uid'],
                $stat['mode'] & 0777,
                ProcessUser::id(),
            ));
        }
    }
}
