<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Internal;

use Nyholm\Psr7\Request;
use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\Psr7Exchange;
use WarmHttp\Internal\ReadTimeout;
use WarmHttp\Internal\ResponseSink;
use WarmHttp\Internal\Transfer;
use WarmHttp\Internal\TransferSpec;

/** The per-transfer watch libcurl calls as CURLOPT_XFERINFOFUNCTION. */
final class ReadTimeoutTest extends TestCase
{
    public function testBytesEitherWayKeepTheTransferAliveAndSilenceStopsIt(): void
    {
        $transfer = self::transfer(ResponseSink::Buffered);
        $watch = (new ReadTimeout(0.2))->watch($transfer);

        self::assertSame(0, $watch(null, 0, 0, 0, 0));
        usleep(30_000);
        self::assertSame(0, $watch(null, 0, 0, 100, 100), 'an upload moving counts');
        usleep(30_000);
        self::assertSame(0, $watch(null, 1000, 10, 100, 100), 'a download moving counts');
        self::assertSame(0, $watch(null, 1000, 10, 100, 100), 'not silent long enough yet');
        self::assertFalse($transfer->hasReadTimedOut());
        usleep(250_000);

        self::assertSame(1, $watch(null, 1000, 10, 100, 100));
        self::assertTrue($transfer->hasReadTimedOut());
    }

    public function testTheProgressCallbackSeesEveryCallInGuzzlesOrderAndNoLimitNeverStops(): void
    {
        $calls = [];
        $progress = static function (int ...$numbers) use (&$calls): string {
            $calls[] = $numbers;

            return 'ignored';
        };
        $watch = (new ReadTimeout(0.0, $progress))->watch(self::transfer(ResponseSink::Buffered));
        self::assertSame(0, $watch(null, 100, 10, 50, 5));
        usleep(20_000);
        self::assertSame(0, $watch(null, 100, 10, 50, 5), 'no limit: silence never stops it');
        self::assertSame([[100, 10, 50, 5], [100, 10, 50, 5]], $calls);

        $calls = [];
        $timed = (new ReadTimeout(0.01, $progress))->watch($transfer = self::transfer(ResponseSink::Buffered));
        $timed(null, 0, 0, 0, 0);
        usleep(30_000);
        self::assertSame(1, $timed(null, 0, 0, 0, 0));
        self::assertTrue($transfer->hasReadTimedOut());
        self::assertCount(2, $calls, 'called on the stopping call too');

        self::assertSame(0, (new ReadTimeout(0.0))->watch(self::transfer(ResponseSink::Buffered))(null, 0, 0, 0, 0));
    }

    public function testAThrowingCallbackStopsOnlyItsTransferAndNothingLeavesThroughCurl(): void
    {
        $throwing = static function (): void {
            throw new \RuntimeException('stop');
        };

        self::assertSame(1, (new ReadTimeout(0.0, $throwing))->watch(self::transfer(ResponseSink::Buffered))(null, 0, 0, 0, 0));
        $timed = (new ReadTimeout(5.0, $throwing))->watch($transfer = self::transfer(ResponseSink::Buffered));
        self::assertSame(1, $timed(null, 0, 0, 0, 0));
        self::assertFalse($transfer->hasReadTimedOut(), 'not reported as the read timeout');
    }

    public function testUnreadBytesOfAStreamedBodyAreTheReadersDelayNotTheServers(): void
    {
        $transfer = self::transfer(ResponseSink::Streamed);
        $transfer->streamedBody?->write('unread');
        $watch = (new ReadTimeout(0.01))->watch($transfer);

        $watch(null, 0, 6, 0, 0);
        usleep(30_000);

        self::assertSame(0, $watch(null, 0, 6, 0, 0));
        $transfer->streamedBody?->take(6);
        usleep(30_000);
        self::assertSame(1, $watch(null, 0, 6, 0, 0));
    }

    public function testEachTransferHasItsOwnClock(): void
    {
        $timeout = new ReadTimeout(0.02);
        $first = $timeout->watch(self::transfer(ResponseSink::Buffered));
        $first(null, 0, 0, 0, 0);
        usleep(40_000);

        $second = $timeout->watch(self::transfer(ResponseSink::Buffered));
        self::assertSame(0, $second(null, 0, 0, 0, 0), 'a recycled handle does not inherit the last transfer\'s silence');
        self::assertSame(1, $first(null, 0, 0, 0, 0));
        self::assertSame(0, $timeout(), 'the client-wide instance itself never stops anything');
    }

    private static function transfer(ResponseSink $sink): Transfer
    {
        return new Transfer(TransferSpec::of('GET', 'http://example.com/', true, [], $sink), new Psr7Exchange(new Request('GET', 'http://example.com/')));
    }
}
