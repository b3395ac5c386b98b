<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

/**
 * The effective uid of this process, asked once: the owner the fallback journal's directory
 * and the relay's socket are checked against.
 *
 * @internal
 */
final class ProcessUser
{
    private static ?int $uid = null;

    public static function id(): int
    {
        return self::$uid ??= self::find();
    }

    private static function find(): int
    {
        if (\function_exists('posix_geteuid')) {
            return posix_geteuid();
        }
        // Without ext-posix: a file this process creates is owned by its effective uid.
        $probe = tempnam(sys_get_temp_dir(), 'warmhttp-uid');
        $owner = $probe !== false ? fileowner($probe) : false;
        if ($probe !== false) {
            @unlink($probe);
        }
        if ($owner === false) {
            throw new \RuntimeException('Cannot tell which user this process runs as: install ext-posix, or make sys_get_temp_dir() writable.');
        }

        return $owner;
    }
}
