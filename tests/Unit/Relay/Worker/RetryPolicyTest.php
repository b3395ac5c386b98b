<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Worker;

use Nyholm\Psr7\Response;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\FailureKind;
use WarmHttp\Relay\Outbound\UpstreamFailure;
use WarmHttp\Relay\Storage\SpooledRequest;
use WarmHttp\Relay\Worker\RetryPolicy;
use WarmHttp\Relay\Worker\Verdict;

final class RetryPolicyTest extends TestCase
{
    private const NOW = 1_800_000_000.0;

    /** @return iterable<string, array{int, Verdict}> */
    public static function statuses(): iterable
    {
        yield '200' => [200, Verdict::Delivered];
        yield '204' => [204, Verdict::Delivered];
        yield '302 is not followed, and counts as received' => [302, Verdict::Delivered];
        yield '400' => [400, Verdict::Dead];
        yield '404' => [404, Verdict::Dead];
        yield '408 request timeout' => [408, Verdict::Retry];
        yield '429 too many requests' => [429, Verdict::Retry];
        yield '500' => [500, Verdict::Retry];
        yield '503' => [503, Verdict::Retry];
    }

    #[DataProvider('statuses')]
    public function testAStatusDecidesTheVerdict(int $status, Verdict $verdict): void
    {
        $decision = (new RetryPolicy())->decide(self::spooled(), 1, new Response($status), self::NOW);

        self::assertSame($verdict, $decision->verdict);
    }

    public function testAClientErrorNamesItsStatus(): void
    {
        $decision = (new RetryPolicy())->decide(self::spooled(), 1, new Response(404), self::NOW);

        self::assertSame('HTTP 404: a client error is not retried', $decision->reason);
    }

    /** @return iterable<string, array{FailureKind, Verdict}> */
    public static function failures(): iterable
    {
        yield 'network' => [FailureKind::Network, Verdict::Retry];
        yield 'timeout' => [FailureKind::Timeout, Verdict::Retry];
        yield 'request error (too many redirects)' => [FailureKind::Request, Verdict::Dead];
        yield 'response too large: it was received' => [FailureKind::TooLarge, Verdict::Delivered];
    }

    #[DataProvider('failures')]
    public function testAFailureKindDecidesTheVerdict(FailureKind $kind, Verdict $verdict): void
    {
        $decision = (new RetryPolicy())->decide(self::spooled(), 1, new UpstreamFailure($kind, 'POST https://a.test/ failed: why.'), self::NOW);

        self::assertSame($verdict, $decision->verdict);
    }

    public function testBackoffIsFullJitterUnderAnExponentialCeiling(): void
    {
        $policy = new RetryPolicy(baseSeconds: 1.0, capSeconds: 300.0);
        for ($attempt = 1; $attempt <= 12; ++$attempt) {
            $ceiling = min(300.0, 2 ** ($attempt - 1));
            for ($i = 0; $i < 50; ++$i) {
                $delay = $policy->backoff($attempt);
                self::assertGreaterThanOrEqual(0.0, $delay);
                self::assertLessThanOrEqual($ceiling, $delay);
            }
        }
    }

    public function testAHugeAttemptCountDoesNotOverflowTheCeiling(): void
    {
        self::assertLessThanOrEqual(300.0, (new RetryPolicy())->backoff(\PHP_INT_MAX));
    }

    public function testRetryAfterInSecondsSetsTheNextAttempt(): void
    {
        $decision = (new RetryPolicy())->decide(self::spooled(), 1, new Response(503, ['Retry-After' => '120']), self::NOW);

        self::assertSame(Verdict::Retry, $decision->verdict);
        self::assertEqualsWithDelta(self::NOW + 120, $decision->retryAt, 0.001);
    }

    public function testRetryAfterAsAnHttpDateSetsTheNextAttempt(): void
    {
        $date = gmdate('D, d M Y H:i:s \G\M\T', (int) self::NOW + 60);
        $decision = (new RetryPolicy())->decide(self::spooled(), 1, new Response(429, ['Retry-After' => $date]), self::NOW);

        self::assertEqualsWithDelta(self::NOW + 60, $decision->retryAt, 1.0);
    }

    public function testAnUnreadableRetryAfterFallsBackToBackoff(): void
    {
        $decision = (new RetryPolicy(baseSeconds: 1.0))->decide(self::spooled(), 1, new Response(503, ['Retry-After' => 'soon']), self::NOW);

        self::assertLessThanOrEqual(self::NOW + 1.0, $decision->retryAt);
    }

    public function testMaxAttemptsEndsInTheDeadLetters(): void
    {
        $decision = (new RetryPolicy(maxAttempts: 3))->decide(self::spooled(), 3, new Response(500), self::NOW);

        self::assertSame(Verdict::Dead, $decision->verdict);
        self::assertSame('HTTP 500; gave up after 3 attempts', $decision->reason);
    }

    public function testANextAttemptPastTheMaximumAgeIsNotScheduled(): void
    {
        $old = self::spooled(createdAt: self::NOW - 100.0);
        $decision = (new RetryPolicy(maxAgeSeconds: 50.0))->decide($old, 2, new Response(500), self::NOW);

        self::assertSame(Verdict::Dead, $decision->verdict);
        self::assertStringContainsString('maximum age of 50s', $decision->reason);
    }

    private static function spooled(float $createdAt = self::NOW): SpooledRequest
    {
        return new SpooledRequest(1, 'POST', 'https://a.test/hook', [], '{}', 'key-1', 0, $createdAt);
    }
}
