<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Front;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Front\TokenThrottle;

final class TokenThrottleTest extends TestCase
{
    public function testBlocksForTenSecondsAtTheTenthFailureWithinTenSeconds(): void
    {
        $throttle = new TokenThrottle();
        for ($i = 0; $i < 9; ++$i) {
            self::assertFalse($throttle->failed(100.0 + $i));
        }
        self::assertFalse($throttle->isBlocked(108.5));

        self::assertTrue($throttle->failed(109.0), 'the tenth failure starts the block');

        self::assertTrue($throttle->isBlocked(109.0));
        self::assertSame(10, $throttle->retryAfter(109.0));
        self::assertSame(1, $throttle->retryAfter(118.5));
        self::assertFalse($throttle->isBlocked(119.0));
    }

    public function testFailuresOlderThanTheWindowDoNotCount(): void
    {
        $throttle = new TokenThrottle();
        for ($i = 0; $i < 20; ++$i) {
            $throttle->failed($i * 1.5); // 2 in 3 s: under 10 in 10 s
        }

        self::assertFalse($throttle->isBlocked(30.0));
    }

    public function testTheCountStartsAfreshAfterABlock(): void
    {
        $throttle = new TokenThrottle();
        for ($i = 0; $i < 10; ++$i) {
            $throttle->failed(0.0);
        }
        $throttle->failed(10.5);

        self::assertFalse($throttle->isBlocked(10.5), 'one failure after a block does not block again');
    }
}
