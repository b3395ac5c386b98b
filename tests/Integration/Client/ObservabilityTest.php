<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Client;

use WarmHttp\Client;

use function WarmHttp\concurrently;

use WarmHttp\Exception\NetworkException;
use WarmHttp\Exception\TimeoutException;
use WarmHttp\Observability\RequestDispatched;
use WarmHttp\Observability\RequestEvent;
use WarmHttp\Observability\RequestFailed;
use WarmHttp\Observability\RequestFinished;
use WarmHttp\Observability\RequestStarted;
use WarmHttp\Observability\ResponseHeadersReceived;
use WarmHttp\Rig\FreePort;
use WarmHttp\Rig\RawOrigin;
use WarmHttp\Rig\TempDir;
use WarmHttp\Tests\Integration\Relay\MemoryLogger;
use WarmHttp\Tests\Integration\RigTestCase;

/**
 * Client::withListener(): a listener sees every request, however it was sent, with the
 * timings, against real nginx and a refused port; a failing listener fails nothing else.
 */
final class ObservabilityTest extends RigTestCase
{
    /** @var list<RequestEvent> */
    private array $events = [];

    public function testASentRequestIsStartedThenHeadersThenFinishedWithItsTimings(): void
    {
        $client = $this->observed();
        $request = $client->createRequest('GET', self::nginxUrl('h2'));

        $response = $client->sendRequest($request);

        self::assertSame([RequestStarted::class, ResponseHeadersReceived::class, RequestFinished::class], $this->kinds());
        $finished = $this->events[2];
        \assert($finished instanceof RequestFinished);
        self::assertSame($this->events[0]->request(), $finished->request, 'the same request object through all events');
        self::assertSame($request->getUri(), $finished->request->getUri());
        self::assertSame($response, $finished->response);
        self::assertNotNull($finished->stats);
        self::assertGreaterThan(0.0, $finished->stats->totalMs);
        self::assertSame('2', $finished->stats->httpVersion);
    }

    /** A streamed response settles at its head: it is finished only once its body came whole. */
    public function testAStreamedResponseIsFinishedWhenItsBodyHasBeenRead(): void
    {
        $client = $this->observed(['stream' => true]);

        $response = $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', '/echo/streamed')));
        $atHead = $this->kinds();
        $body = (string) $response->getBody();

        self::assertSame([RequestStarted::class, ResponseHeadersReceived::class], $atHead);
        self::assertNotSame('', $body);
        self::assertSame([RequestStarted::class, ResponseHeadersReceived::class, RequestFinished::class], $this->kinds());
    }

    public function testAStreamedBodyThatBreaksOffIsReportedAsFailed(): void
    {
        $origin = RawOrigin::start();
        // The head and 1,000 bytes of 100,000 come at once, then nothing: the transfer settles at
        // its head, and its body fails a second later.
        $client = $this->observed(['stream' => true, 'timeout' => 1.0]);

        try {
            $response = $client->sendRequest($client->createRequest('GET', $origin->url('/stall-mid-body')));
            try {
                $response->getBody()->getContents();
                self::fail('a body cut short must not read as a whole one');
            } catch (\RuntimeException $e) {
                // PSR-7's stream contract: the reader sees the failure as its cause
                self::assertInstanceOf(TimeoutException::class, $e->getPrevious());
            }
        } finally {
            $origin->stop();
        }

        self::assertSame([RequestStarted::class, ResponseHeadersReceived::class, RequestFailed::class], $this->kinds());
        $failed = $this->events[2];
        \assert($failed instanceof RequestFailed);
        self::assertInstanceOf(TimeoutException::class, $failed->exception);
    }

    public function testSendAsyncSendAllAndConcurrentlyAreAllSeen(): void
    {
        $client = $this->observed();
        $url = static fn(string $tag): string => self::nginxUrl('h2', "/echo/$tag");

        $client->sendAsync($client->createRequest('GET', $url('async')))->wait();
        $client->sendAll(['a' => $client->createRequest('GET', $url('all-a')), 'b' => $client->createRequest('GET', $url('all-b'))]);
        concurrently(
            static fn() => $client->sendRequest($client->createRequest('GET', $url('task-1'))),
            static fn() => $client->sendRequest($client->createRequest('GET', $url('task-2'))),
        );

        self::assertSame(['/echo/all-a', '/echo/all-b', '/echo/async', '/echo/task-1', '/echo/task-2'], $this->paths(RequestStarted::class));
        self::assertSame($this->paths(RequestStarted::class), $this->paths(RequestFinished::class));
    }

    public function testAFailureIsReportedWithTheExceptionAndTheElapsedTime(): void
    {
        $client = $this->observed(['timeout' => 0.2]);

        $results = $client->sendAll([
            $client->createRequest('GET', \sprintf('http://127.0.0.1:%d/', FreePort::pick())),
            $client->createRequest('GET', self::nginxUrl('plain', '/slow?ms=2000')),
        ]);

        self::assertInstanceOf(NetworkException::class, $results[0]);
        $failed = array_values(array_filter($this->events, static fn(RequestEvent $e): bool => $e instanceof RequestFailed));
        self::assertCount(2, $failed);
        self::assertSame([$results[0], $results[1]], array_map(static fn(RequestFailed $e) => $e->exception, $this->inOrder($failed, $results)));
        self::assertInstanceOf(TimeoutException::class, $results[1]);
        self::assertGreaterThanOrEqual(150.0, $this->inOrder($failed, $results)[1]->elapsedMs, 'the timed-out one took about the timeout');
        self::assertCount(0, array_filter($this->events, static fn(RequestEvent $e): bool => $e instanceof RequestFinished));
    }

    public function testDispatchIsSeen(): void
    {
        $dir = TempDir::create('observability-dispatch');
        $client = $this->observed(['relay_fallback_dir' => $dir->path(), 'relay_allow_private_networks' => true, 'logger' => new MemoryLogger()]);
        $request = $client->createRequest('POST', self::nginxUrl('plain', '/fast'));

        $client->dispatch($request);

        self::assertSame([RequestDispatched::class], $this->kinds());
        self::assertSame('/fast', $this->events[0]->request()->getUri()->getPath());
        $dir->remove();
    }

    public function testAThrowingListenerIsLoggedAndTheRequestStillSucceeds(): void
    {
        $logger = new MemoryLogger();
        $client = self::client(['logger' => $logger])
            ->withListener(static function (RequestEvent $e): void {
                throw new \RuntimeException('metrics backend down');
            })
            ->withListener(function (RequestEvent $e): void {
                $this->events[] = $e;
            });

        $response = $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2')));

        self::assertSame(200, $response->getStatusCode());
        self::assertCount(3, $this->events, 'the second listener still hears everything');
        self::assertCount(3, $logger->records);
        self::assertSame('error', $logger->records[0][0]);
        self::assertStringContainsString('A WarmHttp listener threw RuntimeException on WarmHttp\Observability\RequestStarted: metrics backend down', $logger->records[0][1]);
    }

    public function testWithOptionsKeepsTheListenersAndTheOriginalClientHasNone(): void
    {
        $plain = self::client();
        $observed = $plain->withListener(function (RequestEvent $e): void {
            $this->events[] = $e;
        });

        $plain->sendRequest($plain->createRequest('GET', self::nginxUrl('h2')));
        self::assertSame([], $this->events);
        $derived = $observed->withOptions(['timeout' => 5]);
        $derived->sendRequest($derived->createRequest('GET', self::nginxUrl('h2')));
        self::assertCount(3, $this->events);
    }

    /** @param array<string, mixed> $options */
    private function observed(array $options = []): Client
    {
        return self::client($options)->withListener(function (RequestEvent $e): void {
            $this->events[] = $e;
        });
    }

    /** @return list<class-string> */
    private function kinds(): array
    {
        return array_map(static fn(RequestEvent $e): string => $e::class, $this->events);
    }

    /**
     * @param class-string<RequestEvent> $kind
     *
     * @return list<string> sorted
     */
    private function paths(string $kind): array
    {
        $paths = array_map(static fn(RequestEvent $e): string => $e->request()->getUri()->getPath(), array_values(array_filter($this->events, static fn(RequestEvent $e): bool => $e instanceof $kind)));
        sort($paths);

        return $paths;
    }

    /**
     * @param list<RequestFailed>  $failed
     * @param array<array-key, mixed> $results
     *
     * @return list<RequestFailed> in the order of $results
     */
    private function inOrder(array $failed, array $results): array
    {
        $byRequest = [];
        foreach ($failed as $event) {
            $byRequest[spl_object_id($event->exception)] = $event;
        }

        return array_values(array_map(static fn(mixed $r) => $byRequest[\is_object($r) ? spl_object_id($r) : 0], $results));
    }
}
