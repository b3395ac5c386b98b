<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bridge\Parity;

use PHPUnit\Framework\TestCase;

/**
 * Base of the parity suite: one EchoOrigin per test class, `parity()` to run cases and
 * `assertParity()` to require both sides identical (after Normalise) but for the dotted paths
 * a case ignores, each ignored path being a documented difference.
 */
abstract class ParityTestCase extends TestCase
{
    private static ?Parity $parity = null;

    public static function tearDownAfterClass(): void
    {
        self::$parity = null;
    }

    protected static function parity(): Parity
    {
        return self::$parity ??= new Parity(EchoOrigin::start());
    }

    /** @param list<string> $ignore */
    protected static function assertParity(ParityResult $result, array $ignore = [], string $message = ''): void
    {
        $compared = $result->compared($ignore);
        self::assertSame($compared['guzzle'], $compared['warm'], $message === '' ? 'Guzzle\'s default handler (expected) and WarmHttp\'s handler (actual) differ' : $message);
    }
}
