<?php

declare(strict_types=1);

namespace WarmHttp\Rig;

/**
 * A private directory under sys_get_temp_dir(), removed with everything in it.
 *
 * @internal test/bench tooling
 */
final class TempDir
{
    private static bool $swept = false;
    private bool $removed = false;

    private function __construct(private readonly string $path) {}

    public static function create(string $prefix): self
    {
        self::sweepStale();
        $path = \sprintf('%s/warmhttp-%s-%d-%s', rtrim(sys_get_temp_dir(), '/'), $prefix, getmypid(), bin2hex(random_bytes(4)));
        if (!@mkdir($path, 0o700, true)) {
            throw new RigException(\sprintf('Cannot create the rig temp dir %s: %s', $path, error_get_last()['message'] ?? 'unknown error'));
        }

        return new self($path);
    }

    public function path(string $child = ''): string
    {
        return $child === '' ? $this->path : $this->path . '/' . $child;
    }

    public function remove(): void
    {
        if ($this->removed) {
            return;
        }
        $this->removed = true;
        self::removeTree($this->path);
    }

    /**
     * A run killed with SIGKILL cannot clean up: remove the dirs of rig owners that are gone
     * (posix_kill(pid, 0) failing with errno 3, ESRCH).
     */
    private static function sweepStale(): void
    {
        if (self::$swept || !\function_exists('posix_kill')) {
            return;
        }
        self::$swept = true;
        foreach (glob(rtrim(sys_get_temp_dir(), '/') . '/warmhttp-*', \GLOB_ONLYDIR) ?: [] as $dir) {
            if (preg_match('/-(\d+)-[0-9a-f]{8}$/', $dir, $m) === 1 && !posix_kill((int) $m[1], 0) && posix_get_last_error() === 3) {
                self::removeTree($dir);
            }
        }
    }

    private static function removeTree(string $path): void
    {
        if (is_link($path) || !is_dir($path)) {
            @unlink($path); // files, links, and the unix sockets php-fpm and the relay leave

            return;
        }
        foreach (scandir($path) ?: [] as $entry) {
            if ($entry !== '.' && $entry !== '..') {
                self::removeTree($path . '/' . $entry);
            }
        }
        @rmdir($path);
    }
}
