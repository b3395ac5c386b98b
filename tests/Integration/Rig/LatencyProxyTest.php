<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Rig;

use PHPUnit\Framework\TestCase;
use WarmHttp\Rig\LatencyProxy;
use WarmHttp\Rig\Rig;

final class LatencyProxyTest extends TestCase
{
    public function testEachRoundTripCostsAtLeastTheRtt(): void
    {
        $proxy = Rig::shared()->proxyTo('h2', 20);
        $handle = curl_init();
        $cold = CurlGet::fetch($proxy->url('/fast'), [], $handle);
        $warm = CurlGet::fetch($proxy->url('/fast'), [], $handle);

        self::assertSame('ok', $warm['body'], $warm['error']);
        self::assertSame(\CURL_HTTP_VERSION_2_0, $warm['version']);
        // Cold: simulated TCP handshake, TLS 1.3 and the request, 1 RTT each.
        self::assertGreaterThanOrEqual(60, $cold['time']);
        self::assertGreaterThanOrEqual(20, $warm['time']);
        self::assertSame(1, $proxy->connections());
    }

    public function testHandshakeSimulationCanBeTurnedOff(): void
    {
        $proxy = Rig::shared()->proxyTo('plain', 30, false);
        $response = CurlGet::fetch($proxy->url('/fast'));

        self::assertSame('ok', $response['body']);
        // Only lower bounds on time: without the handshake a plain request costs 1 RTT, not 2.
        self::assertGreaterThanOrEqual(30, $response['time']);
    }

    public function testCountsConnectionsNotRequests(): void
    {
        $proxy = Rig::shared()->proxyTo('h1tls', 0);
        $handle = curl_init();
        for ($i = 0; $i < 50; ++$i) {
            self::assertSame('ok', CurlGet::fetch($proxy->url('/fast'), [], $handle)['body']);
        }
        self::assertSame(1, $proxy->connections());

        $proxy->resetCounters();
        for ($i = 0; $i < 3; ++$i) {
            self::assertSame('ok', CurlGet::fetch($proxy->url('/fast'))['body']);
        }
        self::assertSame(3, $proxy->connections());
    }

    public function testCarriesLargeBodiesBothWays(): void
    {
        $proxy = Rig::shared()->proxyTo('h1tls', 2);
        $download = CurlGet::fetch($proxy->url('/bytes/10m'));
        self::assertSame(10485760, \strlen($download['body']), $download['error']);

        $body = random_bytes(3_000_000);
        $upload = CurlGet::fetch($proxy->url('/echo-body'), [\CURLOPT_POSTFIELDS => $body]);
        self::assertTrue($body === $upload['body'], 'the 3 MB upload came back intact');
    }

    public function testCarriesManyConcurrentConnections(): void
    {
        $proxy = Rig::shared()->proxyTo('plain', 10);
        $multi = curl_multi_init();
        $handles = [];
        for ($i = 0; $i < 40; ++$i) {
            $handles[$i] = curl_init($proxy->url('/echo/' . $i));
            curl_setopt_array($handles[$i], [\CURLOPT_RETURNTRANSFER => true, \CURLOPT_FORBID_REUSE => true]);
            curl_multi_add_handle($multi, $handles[$i]);
        }
        do {
            curl_multi_exec($multi, $running);
            curl_multi_select($multi, 0.1);
        } while ($running > 0);

        foreach ($handles as $i => $handle) {
            self::assertSame('/echo/' . $i, curl_multi_getcontent($handle));
        }
        self::assertSame(40, $proxy->connections());
    }

    public function testClosingTheClientClosesTheUpstream(): void
    {
        $proxy = Rig::shared()->proxyTo('plain', 0);
        $handle = curl_init();
        CurlGet::fetch($proxy->url('/fast'), [], $handle);
        self::assertSame(1, $proxy->openConnections());
        unset($handle);

        self::assertSame(0, self::awaitOpenConnections($proxy, 0));
    }

    private static function awaitOpenConnections(LatencyProxy $proxy, int $expected): int
    {
        $deadline = microtime(true) + 2;
        while (($open = $proxy->openConnections()) !== $expected && microtime(true) < $deadline) {
            usleep(5_000);
        }

        return $open;
    }
}
