<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Netns;

use PHPUnit\Framework\Attributes\DataProvider;
use WarmHttp\Relay\Outbound\UpstreamOptions;

/**
 * The pin itself, with real libcurl: whatever name curl derives from a URL (UTS-46 mapping,
 * URL decoding, case, a final dot), the connection goes to the pinned address and port and
 * nowhere else. CURLOPT_RESOLVE, the pin before, matched only the exact spelling it was given,
 * so curl resolved any other spelling by itself (GuardBypassTest shows where that led).
 */
final class GuardPinTest extends LoopbackOnlyTestCase
{
    /** @return iterable<string, array{string}> hosts curl maps to evil.example, 127.0.0.1 here */
    public static function spellings(): iterable
    {
        yield 'enclosed letters' => ['ⓔⓥⓘⓛ.example'];
        yield 'percent-encoded' => ['%65vil.example'];
        yield 'upper case' => ['EVIL.example'];
        yield 'final dot' => ['evil.example.'];
        yield 'an IPv4 literal' => ['127.0.0.1'];
    }

    #[DataProvider('spellings')]
    public function testCurlConnectsOnlyToThePinnedAddressWhateverNameItDerives(string $host): void
    {
        $pinned = GuardOrigin::start();
        $named = GuardOrigin::start();

        $primaryIp = self::connect("http://$host:{$named->port}/x", '::1', $pinned->port);

        self::assertSame(1, $pinned->connections(1.0), 'the connection went to the pinned [::1]');
        self::assertSame(0, $named->connections(), 'never to the address curl would have resolved');
        self::assertSame('::1', $primaryIp, 'CURLINFO_PRIMARY_IP, what UpstreamExchange compares, names the pinned address');
    }

    public function testProxyVariablesDoNotTakeThePinnedConnection(): void
    {
        $proxy = GuardOrigin::start();
        $pinned = GuardOrigin::start();
        $saved = getenv('http_proxy');
        putenv("http_proxy=http://127.0.0.1:{$proxy->port}");
        try {
            self::connect("http://evil.example:{$pinned->port}/x", '127.0.0.1', $pinned->port);
        } finally {
            putenv($saved === false ? 'http_proxy' : "http_proxy=$saved");
        }

        self::assertSame(0, $proxy->connections(), 'libcurl reads http_proxy itself: the relay turns it off');
        self::assertSame(1, $pinned->connections(1.0));
    }

    /** One transfer with the relay's pin and proxy options; the origins never answer. */
    private static function connect(string $url, string $address, int $port): string
    {
        $handle = curl_init();
        curl_setopt_array($handle, UpstreamOptions::pinned(UpstreamOptions::direct() + [
            \CURLOPT_URL => $url,
            \CURLOPT_RETURNTRANSFER => true,
            \CURLOPT_CONNECTTIMEOUT_MS => 1000,
            \CURLOPT_TIMEOUT_MS => 300,
        ], $address, $port));
        curl_exec($handle);
        $primaryIp = (string) curl_getinfo($handle, \CURLINFO_PRIMARY_IP);
        curl_close($handle);

        return $primaryIp;
    }
}
