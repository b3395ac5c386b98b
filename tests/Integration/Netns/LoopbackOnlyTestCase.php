<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Netns;

use PHPUnit\Framework\TestCase;

/**
 * Base of every test that may aim at a non-loopback address (the destination guard, hostile
 * upstreams): it runs only inside a loopback-only network namespace, where a guard that fails
 * open can reach nothing but lo. Outside one the whole class is skipped; scripts/test runs this
 * suite through scripts/netns-run with --fail-on-skipped, so in CI it never silently skips.
 */
abstract class LoopbackOnlyTestCase extends TestCase
{
    public static function setUpBeforeClass(): void
    {
        if (!LoopbackOnlyNamespace::isCurrent()) {
            self::markTestSkipped(\sprintf(
                'Runs only in a loopback-only network namespace (found interfaces: %s): scripts/netns-run vendor/bin/phpunit --testsuite netns',
                implode(', ', LoopbackOnlyNamespace::interfaces()),
            ));
        }
    }
}
