<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Support;

/**
 * A fresh directory under sys_get_temp_dir() for one test, removed with what it holds.
 */
final class TempDirectory
{
    public readonly string $path;

    public function __construct()
    {
        $this->path = sys_get_temp_dir() . '/warmhttp-unit-' . bin2hex(random_bytes(6));
        if (!mkdir($this->path, 0o700)) {
            throw new \RuntimeException(\sprintf('Cannot create the test directory %s.', $this->path));
        }
    }

    public function remove(): void
    {
        self::removeTree($this->path);
    }

    private static function removeTree(string $path): void
    {
        if (is_dir($path) && !is_link($path)) {
            foreach (scandir($path) ?: [] as $entry) {
                if ($entry !== '.' && $entry !== '..') {
                    self::removeTree($path . '/' . $entry);
                }
            }
            rmdir($path);
        } elseif (file_exists($path) || is_link($path)) {
            unlink($path);
        }
    }
}
