<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Client;

use PHPUnit\Framework\Attributes\DataProvider;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Exception\TimeoutException;
use WarmHttp\Tests\Integration\RigTestCase;

/**
 * read_timeout: a transfer where no byte moves for that long fails with a TimeoutException,
 * noticed within a second of the limit (libcurl's progress calls while quiet), whatever the
 * total `timeout` still allows; a slow but moving answer, or a slow reader, is not cut off.
 */
final class ReadTimeoutTest extends RigTestCase
{
    /** @return iterable<string, array{string}> */
    public static function listeners(): iterable
    {
        yield 'h2' => ['h2'];
        yield 'h1tls' => ['h1tls'];
        yield 'plain' => ['plain'];
    }

    #[DataProvider('listeners')]
    public function testAStallMidBodyFailsAfterTheReadTimeout(string $listener): void
    {
        $client = self::client(['read_timeout' => 1, 'timeout' => 20]);
        $request = $client->createRequest('GET', self::nginxUrl($listener, '/pause?ms=6000'));
        $start = microtime(true);

        try {
            $client->sendRequest($request);
            self::fail('a 6 s stall must not pass a 1 s read_timeout');
        } catch (TimeoutException $e) {
            $elapsed = microtime(true) - $start;
            self::assertInstanceOf(NetworkException::class, $e);
            self::assertSame($request, $e->getRequest());
            self::assertSame(\CURLE_OPERATION_TIMEDOUT, $e->getCode());
            self::assertStringContainsString('no byte arrived for 1 s, the "read_timeout" option', $e->getMessage());
            self::assertGreaterThanOrEqual(1.0, $elapsed);
            self::assertLessThan(2.5, $elapsed, 'noticed within about a second of the limit');
        }
    }

    public function testARawOriginThatStallsMidBodyFailsTooAndTheTimeoutIsOptional(): void
    {
        $origin = self::rig()->rawOrigin();
        $start = microtime(true);

        try {
            self::client(['read_timeout' => 0.5, 'timeout' => 20])->sendRequest(self::client()->createRequest('GET', $origin->url('/stall-mid-body')));
            self::fail('a stalled body must fail');
        } catch (TimeoutException $e) {
            self::assertStringContainsString('"read_timeout"', $e->getMessage());
            self::assertLessThan(2.0, microtime(true) - $start);
        }

        $start = microtime(true);
        try {
            self::client(['timeout' => 1.5])->sendRequest(self::client()->createRequest('GET', $origin->url('/stall-mid-body')));
            self::fail('a stalled body must fail');
        } catch (TimeoutException $e) {
            self::assertStringContainsString('"timeout" option', $e->getMessage(), 'without read_timeout only the total timeout applies');
            self::assertGreaterThanOrEqual(1.4, microtime(true) - $start);
        }
    }

    public function testWaitingForTheFirstByteCountsAsIdle(): void
    {
        $this->expectException(TimeoutException::class);
        $this->expectExceptionMessage('"read_timeout"');

        self::client(['read_timeout' => 1, 'timeout' => 20])->sendRequest(self::client()->createRequest('GET', self::nginxUrl('h2', '/slow?ms=5000')));
    }

    public function testASlowButMovingAnswerPasses(): void
    {
        $response = self::client(['read_timeout' => 1])->sendRequest(self::client()->createRequest('GET', self::nginxUrl('h2', '/pause?ms=700')));

        self::assertSame('first,second', (string) $response->getBody());
    }

    /** A streamed body the caller reads late (curl paused for it) is not the server's silence. */
    public function testASlowReaderOfAStreamedBodyIsNotCutOff(): void
    {
        $client = self::client(['read_timeout' => 1, 'stream' => true]);
        $response = $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', '/bytes/10m')));
        usleep(2_500_000);

        $read = 0;
        $body = $response->getBody();
        while (($chunk = $body->read(1048576)) !== '') {
            $read += \strlen($chunk);
        }

        self::assertSame(10485760, $read);
    }

    public function testAWarmConnectionServesTheNextRequestAfterAReadTimeout(): void
    {
        $client = self::client(['read_timeout' => 1]);
        try {
            $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', '/pause?ms=3000')));
            self::fail('expected a read timeout');
        } catch (TimeoutException) {
        }

        self::assertSame('ok', (string) $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', '/fast')))->getBody());
    }
}
