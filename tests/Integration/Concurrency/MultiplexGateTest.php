<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Concurrency;

use Psr\Http\Message\ResponseInterface;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Pool;
use WarmHttp\Tests\Integration\RigTestCase;

/**
 * More HTTP/2 requests at once than one connection's 100 streams: without the pool's gate,
 * libcurl 7.88 opened a connection for every request past the 100th (250 requests: about
 * 150 connections and TLS handshakes).
 */
final class MultiplexGateTest extends RigTestCase
{
    public function testTwoHundredFiftyParallelHttp2RequestsShareAFewConnections(): void
    {
        $proxy = self::rig()->proxyTo('h2', 20);
        $client = self::client();
        $before = Pool::stats()->tlsHandshakes;
        $requests = array_map(static fn(int $i) => $client->createRequest('GET', $proxy->url("/slow?ms=50&i=$i")), range(1, 250));

        $results = $client->sendAll($requests, 250);

        self::assertCount(250, array_filter($results, static fn($r) => $r instanceof ResponseInterface && $r->getStatusCode() === 200));
        self::assertLessThanOrEqual(3, $proxy->connections(), 'one connection per 100 streams at most, opened one at a time');
        self::assertSame($proxy->connections(), Pool::stats()->tlsHandshakes - $before);
        self::assertSame(0, Pool::stats()->inFlight);
    }

    public function testARequestWaitingForAStreamCanBeCancelled(): void
    {
        $proxy = self::rig()->proxyTo('h2', 5);
        $client = self::client();
        $pending = array_map(static fn(int $i) => $client->sendAsync($client->createRequest('GET', $proxy->url("/slow?ms=200&i=$i"))), range(1, 120));
        self::assertSame(120, Pool::stats()->inFlight, 'waiting requests count as in flight');

        $pending[119]->cancel();

        foreach (\array_slice($pending, 0, 119) as $p) {
            self::assertSame(200, $p->wait()->getStatusCode());
        }
        self::assertSame(0, Pool::stats()->inFlight);
        $this->expectException(NetworkException::class);
        $this->expectExceptionMessage('cancelled');
        $pending[119]->wait();
    }

    public function testResetBetweenWorkerRequestsDropsWaitingRequestsToo(): void
    {
        $proxy = self::rig()->proxyTo('h2', 5);
        $client = self::client();
        $pending = array_map(static fn(int $i) => $client->sendAsync($client->createRequest('GET', $proxy->url("/slow?ms=200&i=$i"))), range(1, 150));

        Pool::reset();

        self::assertSame(0, Pool::stats()->inFlight);
        foreach ($pending as $p) {
            self::assertTrue($p->isSettled());
        }
        $this->expectException(NetworkException::class);
        $this->expectExceptionMessage('reset');
        $pending[149]->wait();
    }

    public function testAnHttp11OriginIsNotHeldToOneHundred(): void
    {
        $proxy = self::rig()->proxyTo('h1tls', 20);
        $client = self::client();
        // The first answer comes back while the other 99 are still busy, so the 50 that waited
        // for it cannot find an idle connection: each one the gate releases opens its own.
        $requests = array_map(static fn(int $i) => $client->createRequest('GET', $proxy->url('/slow?ms=' . ($i === 1 ? 0 : 300) . "&i=$i")), range(1, 150));

        $results = $client->sendAll($requests, 150);

        self::assertCount(150, array_filter($results, static fn($r) => $r instanceof ResponseInterface && $r->getStatusCode() === 200));
        self::assertGreaterThan(100, $proxy->connections(), 'HTTP/1.1 needs a connection per request in flight; the gate lets them all go');
    }
}
