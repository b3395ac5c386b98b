<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Client;

use WarmHttp\Client;
use WarmHttp\Pool;
use WarmHttp\Response;
use WarmHttp\Tests\Integration\RigTestCase;

final class WarmPoolTest extends RigTestCase
{
    public function testFiftySequentialGetsFromFiveClientsThroughTwentyMsOpenOneConnection(): void
    {
        $proxy = self::rig()->proxyTo('h2', 20);
        $before = Pool::stats();
        $clients = array_map(static fn(): Client => self::client(), range(1, 5));
        for ($i = 0; $i < 50; ++$i) {
            $response = $clients[$i % 5]->sendRequest($clients[0]->createRequest('GET', $proxy->url('/fast')));
            self::assertSame(200, $response->getStatusCode());
        }
        $after = Pool::stats();

        self::assertSame(1, $proxy->connections());
        self::assertSame(1, $after->tlsHandshakes - $before->tlsHandshakes);
        self::assertSame(49, $after->connectionsReused - $before->connectionsReused);
    }

    public function testStatsTellColdFromWarm(): void
    {
        $proxy = self::rig()->proxyTo('h2', 2);
        $client = self::client();
        $cold = $client->sendRequest($client->createRequest('GET', $proxy->url('/fast')));
        $warm = $client->sendRequest($client->createRequest('GET', $proxy->url('/fast')));

        self::assertInstanceOf(Response::class, $cold);
        self::assertInstanceOf(Response::class, $warm);
        self::assertFalse($cold->stats()->reusedConnection);
        self::assertGreaterThan(0.0, $cold->stats()->tlsMs);
        self::assertTrue($warm->stats()->reusedConnection);
        self::assertSame(0.0, $warm->stats()->tlsMs);
        self::assertSame('2', $warm->stats()->httpVersion);
        self::assertSame('2', $warm->getProtocolVersion());
        self::assertStringStartsWith('127.0.0.1:', $warm->stats()->remoteAddress);
    }

    public function testHundredHttp2RequestsMultiplexOnOneConnection(): void
    {
        $proxy = self::rig()->proxyTo('h2', 20);
        $client = self::client();
        $requests = array_map(static fn(int $i) => $client->createRequest('GET', $proxy->url('/echo/' . $i)), range(1, 100));
        $results = $client->sendAll($requests, 100);

        foreach ($results as $i => $response) {
            self::assertNotInstanceOf(\Throwable::class, $response);
            self::assertSame('/echo/' . ($i + 1), (string) $response->getBody());
            self::assertSame('2', $response->getProtocolVersion());
        }
        self::assertSame(1, $proxy->connections());
    }

    public function testHttp11HonoursMaxHostConnections(): void
    {
        $proxy = self::rig()->proxyTo('h1tls', 20);
        $client = self::client(['max_host_connections' => 4]);
        $requests = array_map(static fn(int $i) => $client->createRequest('GET', $proxy->url('/slow?ms=30&i=' . $i)), range(1, 20));
        try {
            $results = $client->sendAll($requests, 20);
        } finally {
            Pool::limitConnections(0, 0);
        }

        self::assertCount(20, array_filter($results, static fn($r) => !$r instanceof \Throwable && $r->getStatusCode() === 200));
        self::assertSame('1.1', $results[0] instanceof \Throwable ? '' : $results[0]->getProtocolVersion());
        self::assertLessThanOrEqual(4, $proxy->connections());
        self::assertGreaterThan(1, $proxy->connections(), 'the requests should have run in parallel on several connections');
    }

    public function testIdleConnectionsAreRetiredAfterMaxIdleSeconds(): void
    {
        $proxy = self::rig()->proxyTo('h2', 1);
        $client = self::client(['max_idle_seconds' => 1]);
        $client->sendRequest($client->createRequest('GET', $proxy->url('/fast')));
        $client->sendRequest($client->createRequest('GET', $proxy->url('/fast')));
        self::assertSame(1, $proxy->connections());
        usleep(2_100_000);
        $client->sendRequest($client->createRequest('GET', $proxy->url('/fast')));

        self::assertSame(2, $proxy->connections());
    }

    public function testResetDropsPendingRequestsButKeepsWarmConnections(): void
    {
        $proxy = self::rig()->proxyTo('h2', 1);
        $client = self::client();
        $client->sendRequest($client->createRequest('GET', $proxy->url('/fast')));
        $pending = $client->sendAsync($client->createRequest('GET', $proxy->url('/slow?ms=2000')));

        Pool::reset();

        self::assertTrue($pending->isSettled());
        try {
            $pending->wait();
            self::fail('a request abandoned by reset() must not complete');
        } catch (\WarmHttp\Exception\NetworkException $e) {
            self::assertStringContainsString('reset', $e->getMessage());
        }
        $client->sendRequest($client->createRequest('GET', $proxy->url('/fast')));
        self::assertSame(1, $proxy->connections());
        self::assertSame(0, Pool::stats()->inFlight);
    }
}
