<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Netns;

/**
 * Tells whether this process runs in a network namespace whose only interface is loopback, as
 * scripts/netns-run makes it: /proc/net/dev lists the interfaces of the reader's own namespace.
 */
final class LoopbackOnlyNamespace
{
    public static function isCurrent(): bool
    {
        return self::interfaces() === ['lo'];
    }

    /** @return list<string> */
    public static function interfaces(): array
    {
        $lines = @file('/proc/net/dev', \FILE_IGNORE_NEW_LINES) ?: [];
        $names = [];
        foreach (\array_slice($lines, 2) as $line) {
            $names[] = trim(explode(':', $line, 2)[0]);
        }

        return $names;
    }
}
