<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bridge\Guzzle;

use GuzzleHttp\Client as GuzzleClient;
use GuzzleHttp\Exception\RequestException;
use GuzzleHttp\HandlerStack;
use GuzzleHttp\Promise\PromiseInterface;
use GuzzleHttp\Promise\Utils;
use GuzzleHttp\TransferStats;
use PHPUnit\Framework\TestCase;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Bridge\Guzzle\Handler;
use WarmHttp\Pool;
use WarmHttp\Response;
use WarmHttp\Rig\Rig;

/**
 * The handler on its own terms: one pool for every Guzzle Client, sync and async alike,
 * counted at a latency proxy in front of the rig's HTTP/2 origin.
 */
final class HandlerTest extends TestCase
{
    public function testThreeGuzzleClientsShareOneConnectionToAnHttp2Origin(): void
    {
        $proxy = Rig::shared()->proxyTo('h2', 20);
        $clients = [self::warmClient(), self::warmClient(), self::warmClient()];

        foreach ($clients as $client) {
            self::assertSame('ok', (string) $client->get($proxy->url('/fast'))->getBody());
        }
        $promises = array_map(static fn(GuzzleClient $c): PromiseInterface => $c->getAsync($proxy->url('/fast')), $clients);
        foreach (Utils::unwrap($promises) as $response) {
            self::assertInstanceOf(ResponseInterface::class, $response);
            self::assertSame('2', $response->getProtocolVersion());
        }

        self::assertSame(1, $proxy->connections(), 'three Guzzle Clients, sync and async, one connection');
    }

    public function testGuzzlesDefaultHandlerOpensAConnectionPerClientAndAnotherForAsync(): void
    {
        $proxy = Rig::shared()->proxyTo('h2', 20);
        $clients = [self::defaultClient(), self::defaultClient(), self::defaultClient()];

        foreach ($clients as $client) {
            $client->get($proxy->url('/fast'));
            $client->getAsync($proxy->url('/fast'))->wait();
        }

        // The baseline the handler removes: each Client keeps a sync and an async pool.
        self::assertSame(6, $proxy->connections());
    }

    public function testAPromiseSettlesWhileAnotherOneIsAwaited(): void
    {
        $client = self::warmClient();
        $fast = $client->getAsync(Rig::shared()->nginx()->url('h2', '/fast'));
        $slow = $client->getAsync(Rig::shared()->nginx()->url('h2', '/slow?ms=300'));

        $slow->wait();

        self::assertSame(PromiseInterface::FULFILLED, $fast->getState(), 'waiting on one request drives the whole pool');
    }

    public function testACancelledPromiseIsRejectedAndFreesThePool(): void
    {
        $promise = self::warmClient()->getAsync(Rig::shared()->nginx()->url('h2', '/slow?ms=5000'));

        $promise->cancel();

        self::assertSame(PromiseInterface::REJECTED, $promise->getState());
        self::assertSame(0, Pool::stats()->inFlight);
    }

    public function testOnStatsCarriesCurlStyleTimingsAndTheWarmHttpStats(): void
    {
        $proxy = Rig::shared()->proxyTo('h2', 20);
        $client = self::warmClient();
        /** @var list<TransferStats> $seen */
        $seen = [];
        $options = ['on_stats' => static function (TransferStats $stats) use (&$seen): void {
            $seen[] = $stats;
        }];

        $client->get($proxy->url('/fast'), $options);
        $client->get($proxy->url('/fast'), $options);

        self::assertCount(2, $seen);
        [$cold, $warm] = array_map(static fn(TransferStats $s): array => $s->getHandlerStats(), $seen);
        self::assertSame(1, $cold['num_connects']);
        self::assertSame(0, $warm['num_connects']);
        self::assertGreaterThan(0.0, $cold['appconnect_time'], 'the cold request paid for TLS');
        self::assertSame('127.0.0.1', $warm['primary_ip']);
        self::assertSame($proxy->port(), $warm['primary_port']);
        self::assertInstanceOf(\WarmHttp\TransferStats::class, $warm['warmhttp']);
        // the caller's response, as from Guzzle's handlers; the pool's stats are under "warmhttp"
        self::assertInstanceOf(\GuzzleHttp\Psr7\Response::class, $seen[1]->getResponse());
    }

    public function testAnUnsupportedOptionIsRefusedByName(): void
    {
        try {
            self::warmClient()->get(Rig::shared()->nginx()->url('h2', '/fast'), ['on_trailers' => static function (): void {}]);
            self::fail('on_trailers has no Client option to map onto: it must be refused, not ignored');
        } catch (RequestException $e) {
            self::assertStringContainsString('"on_trailers"', $e->getMessage());
            self::assertNull($e->getResponse());
        }
    }

    public function testTheVerifyOptionTakesACaBundlePathAndFalse(): void
    {
        $url = Rig::shared()->nginx()->url('h2', '/fast');
        $client = new GuzzleClient(['handler' => HandlerStack::create(new Handler())]);

        self::assertSame(200, $client->get($url, ['verify' => Rig::shared()->caFile()])->getStatusCode());
        self::assertSame(200, $client->get($url, ['verify' => false])->getStatusCode());
        try {
            $client->get(Rig::shared()->nginx()->url('h1tls', '/fast'), ['verify' => true, 'timeout' => 5]);
            self::fail('the rig certificate is not in the system CA bundle');
        } catch (RequestException $e) {
            // As with CurlHandler: CURLE_PEER_FAILED_VERIFICATION (60) is no ConnectException.
            self::assertSame(RequestException::class, $e::class);
            self::assertStringContainsString('certificate', $e->getMessage());
        }
    }

    public function testAGuzzleClientTakesTheHandlerDirectlyWithoutAStack(): void
    {
        $client = new GuzzleClient(['handler' => new Handler(), 'verify' => Rig::shared()->caFile()]);

        self::assertSame('ok', (string) $client->get(Rig::shared()->nginx()->url('h2', '/fast'))->getBody());
    }

    private static function warmClient(): GuzzleClient
    {
        return new GuzzleClient(['handler' => HandlerStack::create(new Handler()), 'verify' => Rig::shared()->caFile()]);
    }

    private static function defaultClient(): GuzzleClient
    {
        return new GuzzleClient(['verify' => Rig::shared()->caFile(), 'version' => '2.0']);
    }
}
