<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\App;

use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\FailureKind;
use WarmHttp\Relay\App\HopClock;

final class HopClockTest extends TestCase
{
    public function testWithoutTimeoutsAReadWaitsAYear(): void
    {
        self::assertSame([31_536_000, 0], (new HopClock(0.0, 0.0))->wait());
    }

    public function testTheReadTimeoutBindsWhenItEndsFirst(): void
    {
        $clock = new HopClock(30.0, 0.25);

        [$seconds, $micro] = $clock->wait();

        self::assertSame(0, $seconds);
        self::assertGreaterThan(200_000, $micro);
        self::assertLessThanOrEqual(250_000, $micro);
        self::assertSame(FailureKind::Timeout, $clock->failure()->kind);
        self::assertStringStartsWith('no byte arrived for 0.25 s, the "read_timeout" option (', $clock->failure()->what);
        self::assertSame(\CURLE_OPERATION_TIMEDOUT, $clock->failure()->curlErrno);
    }

    public function testTheWholeTimeoutBindsWhenItEndsFirst(): void
    {
        $clock = new HopClock(0.1, 5.0);

        self::assertSame(0, $clock->wait()[0]);
        self::assertStringStartsWith('no complete response within the "timeout" option (', $clock->failure()->what);
    }

    public function testARanOutTimerLeavesNoWait(): void
    {
        $clock = new HopClock(0.001, 0.0);
        usleep(2000);

        self::assertSame([0, 0], $clock->wait());
    }

    public function testTheFirstAnswerByteIsTimedFromTheStart(): void
    {
        $clock = new HopClock(0.0, 0.0);
        self::assertSame(0, $clock->firstByteUs());
        usleep(1000);
        $clock->sent();
        $clock->received();

        self::assertGreaterThanOrEqual(1000, $clock->firstByteUs());
        self::assertGreaterThanOrEqual($clock->firstByteUs(), $clock->elapsedUs());
    }
}
