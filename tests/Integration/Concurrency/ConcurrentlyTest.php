<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Concurrency;

use function WarmHttp\concurrently;

use WarmHttp\Exception\TimeoutException;
use WarmHttp\Tests\Integration\RigTestCase;
use WarmHttp\Tests\Integration\Support\FakeSdk;

/**
 * Plain synchronous sendRequest() calls inside concurrently() tasks overlap. Overlap is shown
 * by evidence, never by the clock: over HTTP/1.1 a request in flight holds its connection,
 * so ten overlapping requests need ten connections where ten sequential ones need one; and
 * every task has started its request before any has seen its response.
 */
final class ConcurrentlyTest extends RigTestCase
{
    public function testTenTasksCallingSendRequestOverlap(): void
    {
        $proxy = self::rig()->proxyTo('h1tls', 20);
        $client = self::client();
        $events = [];
        $tasks = [];
        for ($i = 0; $i < 10; ++$i) {
            $tasks[] = static function () use ($client, $proxy, $i, &$events): string {
                $events[] = "start $i";
                $body = (string) $client->sendRequest($client->createRequest('GET', $proxy->url("/slow?ms=100&task=$i")))->getBody();
                $events[] = "end $i";

                return $body;
            };
        }

        $results = concurrently(...$tasks);

        self::assertSame(array_fill(0, 10, 'ok'), $results);
        self::assertSame(10, $proxy->connections(), 'ten overlapping HTTP/1.1 requests hold ten connections');
        $firstEnd = array_search('end 0', $events, true);
        foreach (\array_slice($events, 0, 10) as $event) {
            self::assertStringStartsWith('start', $event);
        }
        self::assertGreaterThanOrEqual(10, $firstEnd);
    }

    public function testTheSameWorkSequentialUsesOneConnection(): void
    {
        $proxy = self::rig()->proxyTo('h1tls', 20);
        $client = self::client();
        for ($i = 0; $i < 10; ++$i) {
            $client->sendRequest($client->createRequest('GET', $proxy->url("/slow?ms=10&task=$i")));
        }

        self::assertSame(1, $proxy->connections());
    }

    public function testCallsDeepInsideAThirdPartySdkOverlap(): void
    {
        $proxy = self::rig()->proxyTo('h1tls', 20);
        $sdk = new FakeSdk(self::client(), $proxy->url('/echo'));

        $results = concurrently(
            static fn(): array => $sdk->fetchTwo('a'),
            static fn(): array => $sdk->fetchTwo('b'),
            static fn(): array => $sdk->fetchTwo('c'),
        );

        self::assertSame([['/echo/a/1', '/echo/a/2'], ['/echo/b/1', '/echo/b/2'], ['/echo/c/1', '/echo/c/2']], $results);
        self::assertSame(3, $proxy->connections(), 'the three SDK call chains ran side by side');
    }

    public function testResultsAreKeyedLikeTheTasks(): void
    {
        $results = concurrently(...['first' => static fn(): int => 1, 'second' => static fn(): int => 2]);

        self::assertSame(['first' => 1, 'second' => 2], $results);
    }

    public function testAnExceptionReachesTheCallerWithItsOriginalType(): void
    {
        $client = self::client(['timeout' => 0.3]);
        $origin = self::rig()->rawOrigin();
        $finished = false;

        try {
            concurrently(
                static fn() => $client->sendRequest($client->createRequest('GET', $origin->url('/stall'))),
                static function () use ($client, &$finished): void {
                    $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2')));
                    $finished = true;
                },
                static fn() => throw new \DomainException('task failed'),
            );
            self::fail('the exceptions must reach the caller');
        } catch (TimeoutException $e) {
            self::assertStringContainsString('/stall', $e->getMessage());
        }
        self::assertTrue($finished, 'the other tasks run to their end');
    }

    public function testNestingAndCallsOutsideAnyFiberWork(): void
    {
        $proxy = self::rig()->proxyTo('h1tls', 20);
        $client = self::client();
        $get = static fn(string $path): string => (string) $client->sendRequest($client->createRequest('GET', $proxy->url($path)))->getBody();

        $outside = $get('/echo/outside');
        $results = concurrently(
            static fn(): array => concurrently(static fn() => $get('/echo/inner-1'), static fn() => $get('/echo/inner-2')),
            static fn(): string => $get('/echo/outer'),
        );

        self::assertSame('/echo/outside', $outside);
        self::assertSame([['/echo/inner-1', '/echo/inner-2'], '/echo/outer'], $results);
        self::assertSame(3, $proxy->connections(), 'inner and outer tasks overlapped');
    }

    public function testInsideAFiberWarmHttpDidNotStartItBlocks(): void
    {
        $client = self::client();
        $fiber = new \Fiber(static fn(): string => (string) $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', '/echo/foreign')))->getBody());

        $fiber->start();

        self::assertTrue($fiber->isTerminated(), 'a foreign fiber is never suspended by WarmHttp');
        self::assertSame('/echo/foreign', $fiber->getReturn());
    }
}
