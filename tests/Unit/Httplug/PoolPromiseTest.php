<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Httplug;

use Http\Promise\FulfilledPromise;
use Http\Promise\Promise;
use PHPUnit\Framework\TestCase;
use WarmHttp\Httplug\PoolPromise;

/** The promise's own rules (Promises/A+ as HTTPlug states them), with a hand-driven "pool". */
final class PoolPromiseTest extends TestCase
{
    public function testCallbacksRunWhenItSettlesAndWaitDrivesUntilThen(): void
    {
        $drives = 0;
        $promise = null;
        $promise = new PoolPromise(static function () use (&$drives, &$promise): void {
            ++$drives;
            \assert($promise instanceof PoolPromise);
            $promise->resolve('response');
        });
        $seen = [];
        $promise->then(static function (string $v) use (&$seen): void {
            $seen[] = $v;
        });

        self::assertSame([], $seen, 'nothing runs before it settles');
        self::assertSame('response', $promise->wait());
        self::assertSame(['response'], $seen);
        self::assertSame(1, $drives);
        self::assertSame(Promise::FULFILLED, $promise->getState());
    }

    public function testThenOnASettledPromiseRunsAtOnce(): void
    {
        $promise = self::pending();
        $promise->resolve(1);

        $next = $promise->then(static fn(int $v): int => $v + 1);

        self::assertSame(Promise::FULFILLED, $next->getState());
        self::assertSame(2, $next->wait());
    }

    public function testARejectionSkipsFulfilledCallbacksUntilAHandlerRecovers(): void
    {
        $promise = self::pending();
        $chain = $promise
            ->then(static fn(): string => 'not called')
            ->then(null, static fn(\Throwable $e): string => 'recovered: ' . $e->getMessage());

        $promise->reject(new \RuntimeException('refused'));

        self::assertSame('recovered: refused', $chain->wait());
    }

    public function testAThrowingCallbackRejectsTheNextPromise(): void
    {
        $promise = self::pending();
        $next = $promise->then(static function (): never {
            throw new \DomainException('bad payload');
        });

        $promise->resolve('x');

        self::assertSame(Promise::REJECTED, $next->getState());
        $next->wait(false); // without unwrap, nothing is thrown
        $this->expectException(\DomainException::class);
        $next->wait();
    }

    public function testAPromiseReturnedByACallbackIsFollowed(): void
    {
        $inner = self::pending();
        $outer = self::pending();
        $chained = $outer->then(static fn(): Promise => $inner);

        $outer->resolve('first');
        self::assertSame(Promise::PENDING, $chained->getState());
        $inner->resolve('second');

        self::assertSame('second', $chained->wait());
    }

    public function testAForeignHttplugPromiseIsFollowedToo(): void
    {
        $promise = self::pending();
        $chained = $promise->then(static fn(): Promise => new FulfilledPromise('from another library'));

        $promise->resolve(null);

        self::assertSame('from another library', $chained->wait());
    }

    public function testItSettlesOnce(): void
    {
        $promise = self::pending();
        $promise->resolve('first');
        $promise->reject(new \RuntimeException('late'));
        $promise->resolve('second');

        self::assertSame('first', $promise->wait());
    }

    public function testWaitingForWhatNothingCanSettleSaysSoInsteadOfSpinning(): void
    {
        $this->expectException(\LogicException::class);
        $this->expectExceptionMessage('nothing it depends on can settle it');

        self::pending()->wait();
    }

    private static function pending(): PoolPromise
    {
        return new PoolPromise(static function (): void {});
    }
}
