<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Worker;

use Nyholm\Psr7\Response;
use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Storage\SpooledRequest;
use WarmHttp\Relay\Worker\RetryPolicy;
use WarmHttp\Relay\Worker\SpoolClock;
use WarmHttp\Relay\Worker\Verdict;

/**
 * Issue 13 item 12: retries ran on the wall clock; one set a day back froze them for a day, one
 * set two days forward dead-lettered everything that was retrying.
 */
final class SpoolClockTest extends TestCase
{
    private int $ns = 5_000_000_000;

    public function testMovesWithTheMonotonicClockOnlyFromTheWallClockAtStart(): void
    {
        $clock = SpoolClock::start(null, 1_800_000_000.0, fn(): int => $this->ns);

        $this->ns += 2_500_000_000;

        self::assertEqualsWithDelta(1_800_000_002.5, $clock->now(), 1e-6);
    }

    public function testDoesNotBelieveAWallClockBehindTheSpoolsLastTime(): void
    {
        // The spool was last written at ...100; the machine now says a day earlier.
        $clock = SpoolClock::start(1_800_000_100.0, 1_800_000_100.0 - 86_400, fn(): int => $this->ns);

        self::assertSame(1_800_000_100.0, $clock->now());
    }

    public function testBelievesAWallClockAheadOfIt(): void
    {
        // It may really have been down that long; there is no way to tell.
        self::assertSame(1_800_003_600.0, SpoolClock::start(1_800_000_000.0, 1_800_003_600.0, fn(): int => $this->ns)->now());
    }

    public function testARetryIsDueAfterItsDelayWhateverTheWallClockDoes(): void
    {
        $clock = SpoolClock::start(null, 1_800_000_000.0, fn(): int => $this->ns);
        $policy = new RetryPolicy(baseSeconds: 10.0, capSeconds: 10.0, maxAgeSeconds: 3600.0);
        $request = new SpooledRequest(1, 'POST', 'https://a.example/', [], '', 'k', 0, $clock->now());

        $decision = $policy->decide($request, 1, new Response(503, ['Retry-After' => '10']), $clock->now());
        // The machine's clock jumps two days forward, then a day back: the worker never reads it.
        $this->ns += 9_000_000_000;
        $notYet = $clock->now();
        $this->ns += 1_000_000_000;

        self::assertSame(Verdict::Retry, $decision->verdict);
        self::assertLessThan($decision->retryAt, $notYet);
        self::assertGreaterThanOrEqual($decision->retryAt, $clock->now());
        self::assertSame(Verdict::Retry, $policy->decide($request, 2, new Response(503), $clock->now())->verdict, 'ten seconds old, not two days');
    }

    public function testTheWallClockOffsetIsForTestsOnly(): void
    {
        putenv(SpoolClock::TEST_OFFSET_ENV . '=-86400');
        try {
            self::assertEqualsWithDelta(microtime(true) - 86_400, SpoolClock::wall(), 1.0);
        } finally {
            putenv(SpoolClock::TEST_OFFSET_ENV);
        }
        self::assertEqualsWithDelta(microtime(true), SpoolClock::wall(), 1.0);
    }
}
