<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Internal;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\MalformedResponse;
use WarmHttp\Internal\MemoryStream;
use WarmHttp\Internal\ResponseParser;
use WarmHttp\Response;

final class ResponseParserTest extends TestCase
{
    public function testReadsStatusHeadersAndBody(): void
    {
        $response = self::parse("HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nX-Tag: a\r\nx-tag: b\r\n\r\n", '{"id":1}');

        self::assertSame(201, $response->getStatusCode());
        self::assertSame('Created', $response->getReasonPhrase());
        self::assertSame('1.1', $response->getProtocolVersion());
        self::assertSame(['Content-Type' => ['application/json'], 'X-Tag' => ['a', 'b']], $response->getHeaders());
        self::assertSame('{"id":1}', (string) $response->getBody());
    }

    /** @return iterable<string, array{string, string, int, string}> */
    public static function statusLines(): iterable
    {
        yield 'HTTP/1.0' => ['HTTP/1.0 404 Not Found', '1.0', 404, 'Not Found'];
        yield 'HTTP/2 without a reason' => ['HTTP/2 204', '2', 204, ''];
        yield 'HTTP/3' => ['HTTP/3 200', '3', 200, ''];
        yield 'an empty reason after the space' => ['HTTP/1.1 200 ', '1.1', 200, ''];
        yield 'a reason with spaces' => ['HTTP/1.1 503 Service Temporarily Unavailable', '1.1', 503, 'Service Temporarily Unavailable'];
    }

    #[DataProvider('statusLines')]
    public function testReadsTheStatusLine(string $line, string $version, int $status, string $reason): void
    {
        $response = self::parse($line . "\r\n\r\n");

        self::assertSame($version, $response->getProtocolVersion());
        self::assertSame($status, $response->getStatusCode());
        self::assertSame($reason, $response->getReasonPhrase());
    }

    public function testTheLastHeaderBlockCountsAfter100ContinueAndRedirects(): void
    {
        $response = self::parse(
            "HTTP/1.1 100 Continue\r\n\r\n"
            . "HTTP/1.1 302 Found\r\nLocation: /next\r\nSet-Cookie: first=1\r\n\r\n"
            . "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n",
            'final',
        );

        self::assertSame(200, $response->getStatusCode());
        self::assertSame(['Content-Type' => ['text/plain']], $response->getHeaders());
        self::assertSame('final', (string) $response->getBody());
    }

    public function testABodyThatLooksLikeAHeadIsLeftAlone(): void
    {
        $response = self::parse("HTTP/1.1 200 OK\r\n\r\n", "HTTP/1.1 500 Oops\r\n\r\n");

        self::assertSame(200, $response->getStatusCode());
        self::assertSame("HTTP/1.1 500 Oops\r\n\r\n", (string) $response->getBody());
    }

    public function testUsesAGivenBodyStreamInsteadOfTheRawBytes(): void
    {
        $body = new MemoryStream('streamed');
        $head = "HTTP/2 200\r\n\r\n";

        self::assertSame($body, ResponseParser::parse($head, \strlen($head), [], $body)->getBody());
    }

    public function testKeepsObsTextAndTabsInHeaderValues(): void
    {
        $response = self::parse("HTTP/1.1 200 OK\r\nX-Name: caf\xE9\tau lait\r\nX-Empty:\r\n\r\n");

        self::assertSame(["caf\xE9\tau lait"], $response->getHeader('x-name'));
        self::assertSame([''], $response->getHeader('X-Empty'));
    }

    public function testCarriesTheCurlInfoIntoTheStats(): void
    {
        $head = "HTTP/1.1 200 OK\r\n\r\n";

        self::assertSame('203.0.113.7:443', ResponseParser::parse($head, \strlen($head), ['primary_ip' => '203.0.113.7', 'primary_port' => 443])->stats()->remoteAddress);
    }

    /** @return iterable<string, array{string}> */
    public static function malformedStatusLines(): iterable
    {
        yield 'empty' => [''];
        yield 'not HTTP' => ['ICY 200 OK'];
        yield 'unknown version' => ['HTTP/1.2 200 OK'];
        yield 'two-digit status' => ['HTTP/1.1 20 OK'];
        yield 'four-digit status' => ['HTTP/1.1 2000 OK'];
        yield 'letters for a status' => ['HTTP/1.1 abc OK'];
        yield 'no space before the reason' => ['HTTP/1.1 200OK'];
        yield 'no space after the version' => ['HTTP/1.1200 OK'];
        yield 'only a version' => ['HTTP/1.1'];
    }

    #[DataProvider('malformedStatusLines')]
    public function testRefusesAMalformedStatusLine(string $line): void
    {
        $this->expectException(MalformedResponse::class);
        $this->expectExceptionMessage('the response has a malformed status line ' . json_encode($line));

        self::parse($line . "\r\nContent-Type: text/plain\r\n\r\n");
    }

    /** @return iterable<string, array{string}> */
    public static function malformedHeaderLines(): iterable
    {
        yield 'space in the name' => ['Bad Name: v'];
        yield 'space before the colon' => ['Name : v'];
        yield 'no colon' => ['NoColon'];
        yield 'empty name' => [': v'];
        yield 'obs-fold continuation' => ['  folded'];
        yield 'NUL in the value' => ["X-A: a\0b"];
        yield 'DEL in the value' => ["X-A: a\x7Fb"];
        yield 'bare CR in the value' => ["X-A: a\rb"];
    }

    #[DataProvider('malformedHeaderLines')]
    public function testRefusesAMalformedHeaderLine(string $line): void
    {
        $this->expectException(MalformedResponse::class);
        $this->expectExceptionMessage('the response has a malformed header line ' . json_encode($line));

        self::parse("HTTP/1.1 200 OK\r\nX-Fine: yes\r\n" . $line . "\r\nX-After: yes\r\n\r\n");
    }

    /** @return iterable<string, array{string}> */
    public static function bareLfHeads(): iterable
    {
        // libcurl 7.88 accepts all of these; read as CRLF heads they put every header in the reason
        yield 'every line' => ["HTTP/1.1 200 OK\nContent-Length: 5\n\n"];
        yield 'the status line only' => ["HTTP/1.1 200 OK\nX-A: b\r\n\r\n"];
        yield 'one header line' => ["HTTP/1.1 200 OK\r\nX-A: b\nContent-Length: 5\r\n\r\n"];
        yield 'inside a value' => ["HTTP/1.1 200 OK\r\nX-A: a\nb\r\n\r\n"];
        yield 'in an earlier block' => ["HTTP/1.1 100 Continue\n\nHTTP/1.1 200 OK\r\n\r\n"];
    }

    #[DataProvider('bareLfHeads')]
    public function testRefusesAHeadWithABareLf(string $head): void
    {
        $this->expectException(MalformedResponse::class);
        $this->expectExceptionMessage('the response head has a line ended by a bare LF instead of CRLF');

        self::parse($head, 'hello');
    }

    /** @return iterable<string, array{string}> */
    public static function statusesOutOfRange(): iterable
    {
        yield '000' => ['000'];
        yield '099' => ['099'];
        yield '600' => ['600'];
        yield '999' => ['999'];
    }

    #[DataProvider('statusesOutOfRange')]
    public function testRefusesAStatusOutside100To599(string $code): void
    {
        $this->expectException(MalformedResponse::class);
        $this->expectExceptionMessage(\sprintf('the response has status %s, outside 100-599', $code));

        self::parse("HTTP/1.1 $code OK\r\n\r\n");
    }

    public function testAcceptsTheBoundsOfTheStatusRange(): void
    {
        self::assertSame(100, self::parse("HTTP/1.1 100 Continue\r\n\r\n")->getStatusCode());
        self::assertSame(599, self::parse("HTTP/1.1 599 Whatever\r\n\r\n")->getStatusCode());
    }

    /** @return iterable<string, array{string}> */
    public static function reasonsWithControls(): iterable
    {
        yield 'CR starting a forged header' => ["OK\rX-WarmHttp-Error: forged"];
        yield 'NUL' => ["O\0K"];
        yield 'ESC' => ["O\x1BK"];
        yield 'DEL' => ["O\x7FK"];
        yield 'vertical tab' => ["O\x0BK"];
    }

    #[DataProvider('reasonsWithControls')]
    public function testRefusesAControlCharacterInTheReason(string $reason): void
    {
        $this->expectException(MalformedResponse::class);
        $this->expectExceptionMessage('the response has a control character in its status line');

        self::parse("HTTP/1.1 200 $reason\r\nContent-Length: 5\r\n\r\n", 'hello');
    }

    public function testKeepsTabsAndObsTextInTheReason(): void
    {
        self::assertSame("Tout\tva tr\xE8s bien", self::parse("HTTP/1.1 200 Tout\tva tr\xE8s bien\r\n\r\n")->getReasonPhrase());
    }

    private static function parse(string $head, string $body = ''): Response
    {
        return ResponseParser::parse($head . $body, \strlen($head), []);
    }

    public function testReadsAnHttp2AnswerAsCurlBuffersIt(): void
    {
        $raw = "HTTP/2 200 \r\ncontent-type: text/plain\r\nx-tag: a\r\nx-tag: b\r\n\r\nok";

        $response = ResponseParser::parse($raw, \strlen($raw) - 2, self::http2());

        self::assertSame([200, '2', ''], [$response->getStatusCode(), $response->getProtocolVersion(), $response->getReasonPhrase()]);
        self::assertSame(['content-type' => ['text/plain'], 'x-tag' => ['a', 'b']], $response->getHeaders());
        self::assertSame('ok', (string) $response->getBody());
    }

    public function testAStreamedHttp2AnswerKeepsItsBodyStream(): void
    {
        $head = "HTTP/2 206 \r\ncontent-range: bytes 0-1/9\r\n\r\n";
        $body = new MemoryStream('streamed');

        $response = ResponseParser::parse($head, \strlen($head), self::http2(), $body);

        self::assertSame(206, $response->getStatusCode());
        self::assertSame('bytes 0-1/9', $response->getHeaderLine('Content-Range'));
        self::assertSame($body, $response->getBody());
    }

    public function testAnHttp2AnswerAfterAnInterimOneIsReadByItsLastHead(): void
    {
        $raw = "HTTP/2 103 \r\nlink: </a.css>\r\n\r\nHTTP/2 200 \r\nx-final: 1\r\n\r\nok";

        $response = ResponseParser::parse($raw, \strlen($raw) - 2, self::http2());

        self::assertSame([200, ['x-final' => ['1']], 'ok'], [$response->getStatusCode(), $response->getHeaders(), (string) $response->getBody()]);
    }

    public function testRefusesAnHttp2StatusOutside100To599(): void
    {
        $this->expectException(MalformedResponse::class);
        $this->expectExceptionMessage('the response has status 600, outside 100-599');

        ResponseParser::parse("HTTP/2 600 \r\n\r\n", 16, self::http2());
    }

    /** @return array{http_version: int} */
    private static function http2(): array
    {
        return ['http_version' => \CURL_HTTP_VERSION_2_0];
    }
}
