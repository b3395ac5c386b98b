<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use Symfony\Component\Process\Process;
use WarmHttp\Rig\TempDir;

/**
 * A small tmpfs the relay's spool can fill for real (a full disk, no inodes), mounted for the
 * length of one test and removed after it. Mounting needs root; elsewhere the test is skipped.
 */
final class SmallDisk
{
    /**
     * @param string                $options tmpfs mount options, e.g. "size=4m"
     * @param \Closure(string): void $test    gets the mount point
     */
    public static function with(string $options, \Closure $test): void
    {
        $mount = TempDir::create('relay-tmpfs');
        $mounted = new Process(['mount', '-t', 'tmpfs', '-o', $options, 'tmpfs', $mount->path()]);
        $mounted->run();
        if (!$mounted->isSuccessful()) {
            $mount->remove();
            TestCase::markTestSkipped(\sprintf('Needs root to mount a small tmpfs (mount -t tmpfs -o %s): %s', $options, trim($mounted->getErrorOutput())));
        }
        try {
            $test($mount->path());
        } finally {
            (new Process(['umount', '-l', $mount->path()]))->run();
            $mount->remove();
        }
    }
}
