<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Client;

use WarmHttp\Internal\CurlInfo;
use WarmHttp\Internal\ResponseParser;
use WarmHttp\Response;
use WarmHttp\Tests\Integration\RigTestCase;

/**
 * Response::ofWarmHttp2() reads a warm HTTP/2 answer straight from curl's handle (the lone
 * sendRequest()'s path): what it makes must be what CurlInfo::read() and ResponseParser make of
 * the same finished transfer, stats included, and it must leave every other answer to them.
 */
final class WarmHttp2AnswerTest extends RigTestCase
{
    public function testAWarmAnswerReadsAsTheGeneralPathReadsIt(): void
    {
        $handle = self::handle(self::nginxUrl('h2', '/fast'));
        curl_exec($handle);

        $warm = Response::ofWarmHttp2($handle) ?? self::fail('a warm HTTP/2 answer');
        $info = CurlInfo::read($handle, false);
        $general = ResponseParser::parse((string) curl_multi_getcontent($handle), $info['header_size'], $info);

        self::assertSame(0, $info['num_connects']);
        self::assertSame(200, $warm->getStatusCode());
        self::assertSame($general->getStatusCode(), $warm->getStatusCode());
        self::assertSame($general->getReasonPhrase(), $warm->getReasonPhrase());
        self::assertSame('2', $warm->getProtocolVersion());
        self::assertSame($general->getHeaders(), $warm->getHeaders());
        self::assertSame('ok', (string) $warm->getBody());
        self::assertEquals($general->stats(), $warm->stats());
        self::assertTrue($warm->stats()->reusedConnection);
        self::assertSame('2', $warm->stats()->httpVersion);
        self::assertGreaterThan(0.0, $warm->stats()->totalMs);
    }

    public function testAnAnswerOnANewConnectionIsLeftToTheGeneralPath(): void
    {
        self::assertNull(Response::ofWarmHttp2(self::handle(self::nginxUrl('h2', '/fast'))), 'its phase times are read by CurlInfo::read()');
    }

    public function testAHeadWithoutFieldsAndAnEmptyBody(): void
    {
        $handle = self::handle(self::nginxUrl('h2', '/status/204'));
        curl_exec($handle);

        $warm = Response::ofWarmHttp2($handle) ?? self::fail('a warm HTTP/2 answer');

        self::assertSame(204, $warm->getStatusCode());
        self::assertSame('', (string) $warm->getBody());
    }

    public function testAnHttp11AnswerIsLeftToTheGeneralPath(): void
    {
        $handle = self::handle(self::nginxUrl('h1tls', '/fast'));
        curl_exec($handle);

        self::assertSame(0, curl_getinfo($handle, \CURLINFO_NUM_CONNECTS));
        self::assertNull(Response::ofWarmHttp2($handle));
    }

    /** An easy handle that has sent one request to $url, buffering heads and body as the pool's handles do. */
    private static function handle(string $url): \CurlHandle
    {
        /** @var array<int, mixed> $options */
        $options = [
            \CURLOPT_RETURNTRANSFER => true,
            \CURLOPT_HEADER => true,
            \CURLOPT_HTTP_VERSION => \CURL_HTTP_VERSION_2TLS,
            \CURLOPT_CAINFO => self::rig()->caFile(),
        ];
        $handle = curl_init($url);
        curl_setopt_array($handle, $options);
        curl_exec($handle);
        self::assertSame(1, curl_getinfo($handle, \CURLINFO_NUM_CONNECTS));

        return $handle;
    }
}
