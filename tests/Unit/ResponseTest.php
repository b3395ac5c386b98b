<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit;

use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\MemoryStream;
use WarmHttp\Response;

final class ResponseTest extends TestCase
{
    public function testReadsThroughToTheParsedResponse(): void
    {
        $response = self::response();

        self::assertSame(201, $response->getStatusCode());
        self::assertSame('Created', $response->getReasonPhrase());
        self::assertSame('1.1', $response->getProtocolVersion());
        self::assertSame(['Content-Type' => ['application/json'], 'X-Tag' => ['a', 'b']], $response->getHeaders());
        self::assertSame('a, b', $response->getHeaderLine('x-tag'));
        self::assertSame('{"id":1}', (string) $response->getBody());
    }

    public function testARawHttp2AnswerIsCutIntoFieldsAndBodyWhenFirstRead(): void
    {
        $raw = "HTTP/2 200 \r\ncontent-type: text/plain\r\nx-tag: a\r\n\r\nbody\r\n\r\nmore";
        $bodyAt = (int) strpos($raw, "\r\n\r\n") + 4;

        $bodyFirst = self::http2($raw, $bodyAt, ['num_connects' => 0]);
        self::assertSame(200, $bodyFirst->getStatusCode());
        self::assertSame('2', $bodyFirst->getProtocolVersion());
        self::assertSame("body\r\n\r\nmore", (string) $bodyFirst->getBody());
        self::assertSame($bodyFirst->getBody(), $bodyFirst->getBody(), 'one stream, read on where it stopped');
        self::assertSame(['content-type' => ['text/plain'], 'x-tag' => ['a']], $bodyFirst->getHeaders());
        self::assertTrue($bodyFirst->stats()->reusedConnection);

        $headersFirst = self::http2($raw, $bodyAt, []);
        self::assertSame('a', $headersFirst->getHeaderLine('X-Tag'));
        self::assertSame("body\r\n\r\nmore", (string) $headersFirst->getBody());
        self::assertSame('b', $headersFirst->withHeader('x-tag', 'b')->getHeaderLine('x-tag'));

        $noFields = self::http2("HTTP/2 204 \r\n\r\n", 15, []);
        self::assertSame([], $noFields->getHeaders());
        self::assertSame('', (string) $noFields->getBody());
    }

    /** curl 7.88 reports HTTP/2 for an HTTP/1.1 server's "HTTP/2 200" line: its fields are not nghttp2's. */
    public function testFieldsNotAsNghttp2LetsThemThroughAreLeftToTheGeneralParser(): void
    {
        foreach (["x-a: a\x01b\r\n", "x-a: a\r\n b\r\n", "X-A: b\r\n", "x-a : b\r\n", "x-a: a\nx-b: b\r\n", "x-a\r\n"] as $fields) {
            $raw = "HTTP/2 200 \r\n" . $fields . "\r\nok";
            self::assertNull(Response::ofHttp2($raw, \strlen($raw) - 2, ['http_version' => \CURL_HTTP_VERSION_2_0]), json_encode($fields, \JSON_THROW_ON_ERROR));
        }
        $raw = "HTTP/2 200 \r\nx-a: \tb\x80\r\nx-b:  \r\n\r\nok";
        self::assertSame("b\x80", self::http2($raw, \strlen($raw) - 2, [])->getHeaderLine('x-a'), 'HTAB and obs-text in a value are HTTP/2\'s');
    }

    public function testWithHeaderReturnsAChangedCopyAndLeavesTheOriginal(): void
    {
        $response = self::response();

        $changed = $response->withHeader('content-type', 'text/plain');

        self::assertNotSame($response, $changed);
        self::assertSame('text/plain', $changed->getHeaderLine('Content-Type'));
        self::assertSame(['a', 'b'], $changed->getHeader('X-TAG'));
        self::assertSame('application/json', $response->getHeaderLine('Content-Type'));
    }

    public function testEveryWithMethodLeavesTheOriginalUnchanged(): void
    {
        $response = self::response();

        self::assertSame(['a', 'b', 'c'], $response->withAddedHeader('x-tag', 'c')->getHeader('X-Tag'));
        self::assertFalse($response->withoutHeader('X-TAG')->hasHeader('X-Tag'));
        self::assertSame(418, $response->withStatus(418)->getStatusCode());
        self::assertSame("I'm a teapot", $response->withStatus(418)->getReasonPhrase());
        self::assertSame('Gone fishing', $response->withStatus(503, 'Gone fishing')->getReasonPhrase());
        self::assertSame('2', $response->withProtocolVersion('2')->getProtocolVersion());
        self::assertSame('new', (string) $response->withBody(new MemoryStream('new'))->getBody());

        self::assertSame(201, $response->getStatusCode());
        self::assertSame('1.1', $response->getProtocolVersion());
        self::assertSame(['a', 'b'], $response->getHeader('X-Tag'));
    }

    public function testAChainOfWithMethodsStaysAWarmHttpResponseWithItsStats(): void
    {
        $response = self::response();

        $changed = $response->withHeader('X-A', '1')->withStatus(200)->withoutHeader('X-Tag');

        self::assertInstanceOf(Response::class, $changed);
        self::assertEquals($response->stats(), $changed->stats());
        self::assertSame(12.5, $changed->stats()->totalMs);
        self::assertSame('1', $changed->getHeaderLine('X-A'));
    }

    public function testStatsAreBuiltOnce(): void
    {
        $response = self::response();

        self::assertSame($response->stats(), $response->stats());
    }

    public function testAnEmptyFieldBlockHasNoHeaders(): void
    {
        $response = Response::ofHead(204, '', '2', '', new MemoryStream(''), []);

        self::assertSame([], $response->getHeaders());
        self::assertFalse($response->hasHeader('Content-Type'));
        self::assertSame(['X-A' => ['1']], $response->withHeader('X-A', '1')->getHeaders());
    }

    public function testAnInvalidHeaderIsRefusedByTheFirstWith(): void
    {
        $this->expectException(\InvalidArgumentException::class);

        self::response()->withHeader('Bad Name', 'v');
    }

    /**
     * What curl buffered of an HTTP/2 answer, read by Response::ofHttp2() as the pool reads it.
     *
     * @param array<string, mixed> $curlInfo
     */
    private static function http2(string $raw, int $bodyAt, array $curlInfo): Response
    {
        return Response::ofHttp2($raw, $bodyAt, $curlInfo + ['http_version' => \CURL_HTTP_VERSION_2_0]) ?? self::fail('an HTTP/2 head ofHttp2() reads');
    }

    private static function response(): Response
    {
        return Response::ofHead(201, 'Created', '1.1', "Content-Type: application/json\r\nX-Tag: a\r\nx-tag: b", new MemoryStream('{"id":1}'), ['total_time_us' => 12500, 'num_connects' => 0]);
    }
}
