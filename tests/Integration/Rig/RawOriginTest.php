<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Rig;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Rig\RawOrigin;
use WarmHttp\Rig\Rig;

final class RawOriginTest extends TestCase
{
    private static ?RawOrigin $origin = null;

    public static function tearDownAfterClass(): void
    {
        self::$origin?->stop();
        self::$origin = null;
    }

    private static function origin(): RawOrigin
    {
        return self::$origin ??= Rig::shared()->rawOrigin();
    }

    public function testOkIsKeptAliveAndCounted(): void
    {
        $origin = Rig::shared()->rawOrigin();
        $handle = curl_init();
        for ($i = 0; $i < 3; ++$i) {
            self::assertSame('ok', CurlGet::fetch($origin->url('/ok'), [], $handle)['body']);
        }
        CurlGet::fetch($origin->url('/ok'), [\CURLOPT_POSTFIELDS => 'a=1'], $handle);

        $stats = $origin->stats();
        self::assertSame(1, $stats['connections']);
        self::assertSame(4, $stats['requests']);
        self::assertSame(['/ok' => 4], $stats['paths']);
        self::assertSame(['GET /ok' => 3, 'POST /ok' => 1], $stats['methods']);
        $origin->stop();
    }

    /**
     * @return iterable<string, array{string, int}>
     */
    public static function brokenResponses(): iterable
    {
        yield 'truncated' => ['/truncated', \CURLE_PARTIAL_FILE];
        yield 'reset mid body' => ['/reset-mid-body', \CURLE_RECV_ERROR];
        yield 'malformed status' => ['/malformed-status', \CURLE_UNSUPPORTED_PROTOCOL];
        yield 'garbage' => ['/garbage', \CURLE_UNSUPPORTED_PROTOCOL];
        yield 'bad header' => ['/bad-header', \CURLE_WEIRD_SERVER_REPLY];
        yield 'stall' => ['/stall', \CURLE_OPERATION_TIMEOUTED];
    }

    #[DataProvider('brokenResponses')]
    public function testBrokenResponsesFailInCurl(string $path, int $errno): void
    {
        $response = CurlGet::fetch(self::origin()->url($path), [\CURLOPT_TIMEOUT_MS => 200]);

        self::assertSame($errno, $response['errno'], $response['error']);
    }

    public function testSlowHeadersWait(): void
    {
        $response = CurlGet::fetch(self::origin()->url('/slow-headers?ms=100'));

        self::assertSame('ok', $response['body']);
        self::assertGreaterThanOrEqual(100, $response['time']);
    }

    /**
     * @param 'fin'|'rst' $how
     */
    #[DataProvider('closeKinds')]
    public function testArmedConnectionReadsTheNextRequestThenClosesWithoutAnswer(string $how): void
    {
        $origin = self::origin();
        $socket = stream_socket_client('tcp://127.0.0.1:' . $origin->port());
        self::assertNotFalse($socket);
        $request = "GET /ok HTTP/1.1\r\nHost: x\r\n\r\n";
        fwrite($socket, $request);
        self::assertStringStartsWith('HTTP/1.1 200 OK', (string) fread($socket, 4096));

        $before = $origin->stats();
        $origin->armDeadReuse($how);
        fwrite($socket, $request);
        $next = @fread($socket, 4096);

        self::assertSame('', (string) $next, 'no response on the doomed connection');
        self::assertTrue(feof($socket));
        self::assertSame($before['deadReuseClosed'] + 1, $origin->stats()['deadReuseClosed']);
        self::assertSame($before['connections'], $origin->stats()['connections'], 'arming opens no connection');
    }

    /**
     * @return iterable<string, array{'fin'|'rst'}>
     */
    public static function closeKinds(): iterable
    {
        yield 'fin' => ['fin'];
        yield 'rst' => ['rst'];
    }

    public function testThenDieDoomsOnlyThatConnection(): void
    {
        $origin = self::origin();
        $doomed = curl_init();
        $other = curl_init();
        CurlGet::fetch($origin->url('/ok?then=die'), [], $doomed);
        CurlGet::fetch($origin->url('/ok'), [], $other);
        $before = $origin->stats();

        // libcurl 7.88 replays a request (even a POST) on a fresh connection when a reused one
        // dies before the first response byte: the caller sees success, the origin saw it twice.
        $replayed = CurlGet::fetch($origin->url('/ok'), [\CURLOPT_POSTFIELDS => 'x=1'], $doomed);
        CurlGet::fetch($origin->url('/ok'), [], $other);

        $after = $origin->stats();
        self::assertSame('ok', $replayed['body']);
        self::assertSame($before['deadReuseClosed'] + 1, $after['deadReuseClosed']);
        self::assertSame($before['connections'] + 1, $after['connections']);
        self::assertSame(($before['methods']['POST /ok'] ?? 0) + 2, $after['methods']['POST /ok']);
    }
}
