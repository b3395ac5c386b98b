<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bridge;

use GuzzleHttp\Client as GuzzleClient;
use GuzzleHttp\TransferStats;
use PHPUnit\Framework\Attributes\DataProvider;
use WarmHttp\Tests\Integration\Bridge\Parity\EchoOrigin;
use WarmHttp\Tests\Integration\Bridge\Parity\ParityTestCase;

/**
 * Requests Guzzle's own cURL handlers refuse before anything else: hosts a handler could
 * connect to, or a server read, as another host than the request names (guzzlehttp/guzzle
 * 7.16's HostValidator), URIs without scheme or host, other schemes, other HTTP versions.
 * Refused alike, with the same exception and message, nothing sent and no on_stats. Every URI here is
 * loopback however it is read, so a side that failed to refuse still stays on loopback; the
 * non-ASCII URI hosts (which need name resolution) are compared in the netns suite
 * (tests/Integration/Netns/GuzzleIdnParityTest).
 */
final class GuzzleParityRequestChecksTest extends ParityTestCase
{
    /** @return iterable<string, array{string, array<string, mixed>}> */
    public static function refusedRequests(): iterable
    {
        yield 'a non-ASCII Host header' => ['http://127.0.0.1:{port}/h', ['headers' => ['Host' => 'bücher.localhost']]];
        yield 'a percent escape in the Host header' => ['http://127.0.0.1:{port}/h', ['headers' => ['Host' => '127.0.0.%31']]];
        yield 'a dotted number with a trailing dot' => ['http://127.0.0.1.:{port}/h', []];
        yield 'a percent escape in the URI host' => ['http://127.0.0.%31:{port}/h', []];
        yield 'a relative URI' => ['/relative', []];
        yield 'another scheme' => ['ftp://127.0.0.1:{port}/h', []];
        yield 'HTTP/3' => ['http://127.0.0.1:{port}/h', ['version' => '3']];
        yield 'HTTP/0.9' => ['http://127.0.0.1:{port}/h', ['version' => '0.9']];
    }

    /** @param array<string, mixed> $options */
    #[DataProvider('refusedRequests')]
    public function testARequestGuzzleRefusesIsRefusedAlike(string $url, array $options): void
    {
        $result = self::parity()->scenario(static function (GuzzleClient $client, EchoOrigin $origin) use ($url, $options): array {
            $stats = 0;
            try {
                $client->get(str_replace('{port}', (string) $origin->port(), $url), $options + ['on_stats' => static function (TransferStats $s) use (&$stats): void {
                    ++$stats;
                }]);
            } catch (\Throwable $e) {
                return ['exception' => $e::class, 'message' => $e->getMessage(), 'on_stats calls' => $stats];
            }

            return ['exception' => null, 'on_stats calls' => $stats];
        });

        self::assertNotNull($result->guzzle->seen->facts['exception'] ?? null);
        self::assertSame([], $result->guzzle->received);
        self::assertParity($result);
    }

    public function testAnAsciiHostIsSentAsGiven(): void
    {
        self::assertParity(self::parity()->request('GET', '/h', ['headers' => ['Host' => 'example.test']]));
    }
}
