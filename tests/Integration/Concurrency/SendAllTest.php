<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Concurrency;

use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Exception\TimeoutException;
use WarmHttp\Pool;
use WarmHttp\Tests\Integration\RigTestCase;

final class SendAllTest extends RigTestCase
{
    public function testHundredParallelGetsToAnHttp11OriginStayWithinTheCap(): void
    {
        $proxy = self::rig()->proxyTo('h1tls', 20);
        $client = self::client(['max_host_connections' => 6]);
        try {
            $results = $client->sendAll(self::requests($client, $proxy->url('/echo'), 100), 100);
        } finally {
            Pool::limitConnections(0, 0);
        }

        self::assertCount(100, array_filter($results, static fn($r) => $r instanceof ResponseInterface));
        self::assertLessThanOrEqual(6, $proxy->connections());
    }

    public function testInputIsReadLazilyAndResultsKeepItsKeysAndOrder(): void
    {
        $client = self::client();
        $pulled = 0;
        $maxAhead = 0;
        $generator = (static function () use ($client, &$pulled): \Generator {
            for ($i = 0; $i < 300; ++$i) {
                ++$pulled;
                yield "req-$i" => $client->createRequest('GET', self::nginxUrl('h2', "/echo/$i"));
            }
        })();

        $results = $client->sendAll($generator, 10, static function (string $key, mixed $outcome, int $done) use (&$pulled, &$maxAhead): void {
            $maxAhead = max($maxAhead, $pulled - $done);
        });

        self::assertSame(array_map(static fn(int $i) => "req-$i", range(0, 299)), array_keys($results));
        foreach ($results as $key => $response) {
            self::assertInstanceOf(ResponseInterface::class, $response);
            self::assertSame('/echo/' . substr($key, 4), (string) $response->getBody());
        }
        self::assertLessThanOrEqual(11, $maxAhead, 'no more than the concurrency window is read ahead');
    }

    public function testOneFailureDoesNotAbortTheOthers(): void
    {
        $origin = self::rig()->rawOrigin();
        $client = self::client(['timeout' => 0.5]);
        $results = $client->sendAll([
            'slow' => $client->createRequest('GET', self::nginxUrl('h2', '/slow?ms=200')),
            'stall' => $client->createRequest('GET', $origin->url('/stall')),
            'reset' => $client->createRequest('GET', $origin->url('/reset-mid-body')),
            'fast' => $client->createRequest('GET', self::nginxUrl('h2', '/fast')),
        ]);

        self::assertInstanceOf(ResponseInterface::class, $results['slow']);
        self::assertInstanceOf(TimeoutException::class, $results['stall']);
        self::assertSame('/stall', $results['stall']->getRequest()->getUri()->getPath());
        self::assertInstanceOf(NetworkException::class, $results['reset']);
        self::assertSame('/reset-mid-body', $results['reset']->getRequest()->getUri()->getPath());
        self::assertInstanceOf(ResponseInterface::class, $results['fast']);
    }

    public function testSendAsyncRunsManyAtOnceAndCancelFreesTheConnection(): void
    {
        $proxy = self::rig()->proxyTo('h1tls', 5);
        $client = self::client(['max_host_connections' => 1]);
        try {
            $slow = $client->sendAsync($client->createRequest('GET', $proxy->url('/slow?ms=3000')));
            $next = $client->sendAsync($client->createRequest('GET', $proxy->url('/echo/next')));
            $slow->cancel();
            $response = $next->wait();
        } finally {
            Pool::limitConnections(0, 0);
        }

        self::assertSame('/echo/next', (string) $response->getBody());
        $this->expectException(NetworkException::class);
        $this->expectExceptionMessage('cancelled');
        $slow->wait();
    }

    public function testPendingResponsesSettleWhileAnotherIsAwaited(): void
    {
        $client = self::client();
        $pending = array_map(static fn(int $i) => $client->sendAsync($client->createRequest('GET', self::nginxUrl('h2', "/slow?ms=50&i=$i"))), range(1, 5));
        $seen = [];
        foreach ($pending as $i => $p) {
            $p->onSettle(static function ($outcome) use (&$seen, $i): void {
                $seen[] = $i;
            });
        }

        $pending[4]->wait();

        self::assertGreaterThanOrEqual(1, \count($seen));
        foreach ($pending as $p) {
            self::assertSame(200, $p->wait()->getStatusCode());
        }
        self::assertCount(5, $seen);
    }

    /** @return list<RequestInterface> */
    private static function requests(\WarmHttp\Client $client, string $base, int $count): array
    {
        return array_map(static fn(int $i) => $client->createRequest('GET', "$base/$i"), range(1, $count));
    }
}
