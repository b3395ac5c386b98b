<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Bridge\Guzzle;

use GuzzleHttp\Promise\PromiseInterface;
use GuzzleHttp\Psr7\Request;
use PHPUnit\Framework\TestCase;
use WarmHttp\Bridge\Guzzle\Outbox;
use WarmHttp\Bridge\Guzzle\PromiseBridge;
use WarmHttp\Client;

/**
 * The Handler's queue: nothing starts until a wait asks, a `delay`ed request only once due,
 * and a wait with nothing in flight sleeps until the next due time, never past it. Requests
 * here are refused by the Client as they start (an unknown scheme), so nothing is sent.
 */
final class OutboxTest extends TestCase
{
    public function testNothingStartsBeforeAWait(): void
    {
        $outbox = new Outbox();
        $promise = self::queue($outbox, []);

        self::assertSame(PromiseInterface::PENDING, $promise->getState());
        self::assertTrue($outbox->hasTimers());
    }

    public function testAWaitStartsEveryDueRequest(): void
    {
        $outbox = new Outbox();
        $first = self::queue($outbox, []);
        $second = self::queue($outbox, []);

        self::assertTrue($outbox->startDue());
        self::assertSame([PromiseInterface::REJECTED, PromiseInterface::REJECTED], [$first->getState(), $second->getState()]);
        self::assertFalse($outbox->hasTimers());
        self::assertFalse($outbox->pause(), 'nothing queued, nothing in flight: nothing to wait for');
    }

    public function testADelayedRequestStartsWhenDueAndTheWaitSleepsUntilThen(): void
    {
        $outbox = new Outbox();
        $started = microtime(true);
        $delayed = self::queue($outbox, ['delay' => 150]);

        self::assertFalse($outbox->startDue());
        while ($delayed->getState() === PromiseInterface::PENDING) {
            self::assertTrue($outbox->pause());
            $outbox->startDue();
        }
        $elapsed = microtime(true) - $started;

        self::assertGreaterThanOrEqual(0.15, $elapsed);
        self::assertLessThan(0.3, $elapsed);
    }

    public function testAWithdrawnRequestNeverStarts(): void
    {
        $outbox = new Outbox();
        $promise = self::queue($outbox, []);
        $promise->cancel();

        self::assertFalse($outbox->hasTimers());
        self::assertFalse($outbox->startDue());
    }

    /** @param array<string, mixed> $options */
    private static function queue(Outbox $outbox, array $options): PromiseInterface
    {
        $request = new Request('GET', 'gopher://127.0.0.1/');

        return PromiseBridge::queue($outbox, new Client(), $request, $request, $options, microtime(true));
    }
}
