<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Concurrency;

use function WarmHttp\concurrently;

use WarmHttp\Tests\Integration\RigTestCase;

final class StreamingTest extends RigTestCase
{
    public function testAOneGigabyteDownloadKeepsMemoryFlat(): void
    {
        $client = self::client(['stream' => true, 'timeout' => 0]);
        $response = $client->sendRequest($client->createRequest('GET', self::nginxUrl('plain', '/bytes/1g')));
        $body = $response->getBody();
        $baseline = memory_get_usage();
        $peak = 0;
        $bytes = 0;
        while (!$body->eof()) {
            $bytes += \strlen($body->read(1 << 20));
            $peak = max($peak, memory_get_usage() - $baseline);
        }

        self::assertSame(1 << 30, $bytes);
        self::assertSame(1 << 30, $body->getSize());
        self::assertLessThan(16 << 20, $peak, 'the body must not pile up in memory');
    }

    /**
     * A lone buffered transfer is driven to its end without the rounds' bookkeeping
     * (CurlPool::driveAlone): waiting on one that settled already must not drive another
     * transfer's streamed body to its end instead.
     */
    public function testWaitingOnASettledResponseDoesNotWaitForAStreamedBodyInFlight(): void
    {
        $plain = self::client();
        $settled = $plain->sendAsync($plain->createRequest('GET', self::nginxUrl('h2')));
        self::assertSame('ok', (string) $settled->wait()->getBody());
        $streaming = self::client(['stream' => true]);
        $dripping = $streaming->sendRequest($streaming->createRequest('GET', self::nginxUrl('h2', '/drip')));

        $started = microtime(true);
        self::assertSame(200, $settled->wait()->getStatusCode());
        self::assertLessThan(0.3, microtime(true) - $started, 'the drip answers its second half after 0.5 s');
        self::assertSame('first,second', (string) $dripping->getBody());
    }

    public function testClosingABodyEarlyFreesTheTransfer(): void
    {
        $client = self::client(['stream' => true]);
        $response = $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', '/bytes/1g')));
        self::assertSame(1000, \strlen($response->getBody()->read(1000)));
        $response->getBody()->close();

        self::assertSame(0, \WarmHttp\Pool::stats()->inFlight);
        self::assertSame('ok', (string) $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2')))->getBody());
    }

    public function testStreamsReadInsideFibersInterleave(): void
    {
        $client = self::client(['stream' => true]);
        $read = static function (string $size) use ($client): int {
            $body = $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', "/bytes/$size")))->getBody();
            $n = 0;
            while (!$body->eof()) {
                $n += \strlen($body->read(8192));
            }

            return $n;
        };

        self::assertSame([1 << 20, 10 << 20], concurrently(static fn() => $read('1m'), static fn() => $read('10m')));
    }
}
