<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Internal;

use Nyholm\Psr7\Request;
use Nyholm\Psr7\Response;
use PHPUnit\Framework\TestCase;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Internal\Observers;
use WarmHttp\Internal\SettledTransfer;
use WarmHttp\Observability\RequestEvent;
use WarmHttp\Observability\RequestFailed;
use WarmHttp\Observability\RequestFinished;
use WarmHttp\Observability\RequestStarted;
use WarmHttp\Observability\ResponseHeadersReceived;
use WarmHttp\Tests\Unit\Relay\Outbound\RecordingLogger;

final class ObserversTest extends TestCase
{
    /** @var list<string> */
    private array $seen = [];

    public function testAResponseIsStartedHeadersFinishedToEveryListenerInOrder(): void
    {
        $request = new Request('GET', 'https://api.example.test/');
        $observers = Observers::with(Observers::with(null, $this->recorder('first'), new RecordingLogger()), $this->recorder('second'), new RecordingLogger());

        $observers->watch($request, SettledTransfer::of($request, new Response(200)));

        self::assertSame([
            'first ' . RequestStarted::class, 'second ' . RequestStarted::class,
            'first ' . ResponseHeadersReceived::class, 'second ' . ResponseHeadersReceived::class,
            'first ' . RequestFinished::class, 'second ' . RequestFinished::class,
        ], $this->seen);
    }

    public function testAFailureIsStartedThenFailedWithTheException(): void
    {
        $request = new Request('GET', 'https://api.example.test/');
        $failure = new NetworkException($request, 'refused');
        $events = [];
        $observers = Observers::with(null, static function (RequestEvent $e) use (&$events): void {
            $events[] = $e;
        }, new RecordingLogger());

        $observers->watch($request, SettledTransfer::of($request, $failure));

        self::assertCount(2, $events);
        self::assertInstanceOf(RequestFailed::class, $events[1]);
        self::assertSame($failure, $events[1]->exception);
        self::assertGreaterThanOrEqual(0.0, $events[1]->elapsedMs);
    }

    public function testAThrowingListenerIsLoggedAndTheOthersStillHear(): void
    {
        $logger = new RecordingLogger();
        $observers = Observers::with(Observers::with(null, static function (): void {
            throw new \LogicException('broken exporter');
        }, $logger), $this->recorder('after'), $logger);

        $observers->emit(new RequestStarted(new Request('GET', 'https://api.example.test/')));

        self::assertSame(['after ' . RequestStarted::class], $this->seen);
        self::assertSame('error', $logger->records[0][0]);
        self::assertSame('A WarmHttp listener threw LogicException on WarmHttp\Observability\RequestStarted: broken exporter', $logger->records[0][1]);
    }

    /** @return \Closure(RequestEvent): void */
    private function recorder(string $name): \Closure
    {
        return function (RequestEvent $e) use ($name): void {
            $this->seen[] = $name . ' ' . $e::class;
        };
    }
}
