<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Wire;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Wire\BadWireRequest;
use WarmHttp\Relay\Wire\RequestHead;
use WarmHttp\Relay\Wire\RequestParser;

final class RequestParserTest extends TestCase
{
    private const MAX_BODY = 1024;

    public function testParsesAnAbsoluteFormRequestWithAContentLength(): void
    {
        $head = self::head("POST https://api.example.com/x?y=1 HTTP/1.1\r\nHost: api.example.com\r\nContent-Length: 5\r\n\r\nhello");

        self::assertSame('POST', $head->method);
        self::assertSame('https://api.example.com/x?y=1', $head->target);
        self::assertSame([['Host', 'api.example.com'], ['Content-Length', '5']], $head->headers);
        self::assertSame(5, $head->contentLength);
        self::assertFalse($head->chunked);
        self::assertFalse($head->http10);
        self::assertSame(\strlen("POST https://api.example.com/x?y=1 HTTP/1.1\r\nHost: api.example.com\r\nContent-Length: 5\r\n\r\n"), $head->length);
    }

    public function testParsesAnOriginFormRequestWithoutABody(): void
    {
        $head = self::head("GET /metrics HTTP/1.1\r\nHost: relay\r\n\r\n");

        self::assertSame('/metrics', $head->target);
        self::assertNull($head->contentLength);
        self::assertFalse($head->chunked);
    }

    public function testMarksAnHttp10Request(): void
    {
        self::assertTrue(self::head("GET /health HTTP/1.0\r\n\r\n")->http10);
    }

    public function testWaitsUntilTheHeadIsComplete(): void
    {
        self::assertNull(RequestParser::head("POST https://a.example/ HTTP/1.1\r\nContent-Length: 5\r\n", self::MAX_BODY));
    }

    public function testTrimsOptionalWhitespaceAroundAHeaderValueButKeepsInnerTabsAndObsText(): void
    {
        $head = self::head("GET / HTTP/1.1\r\nX-A: \t a\tb \t\r\nX-Empty:\r\nX-Latin: caf\xE9\r\n\r\n");

        self::assertSame([['X-A', "a\tb"], ['X-Empty', ''], ['X-Latin', "caf\xE9"]], $head->headers);
    }

    public function testAcceptsRepeatedIdenticalContentLengths(): void
    {
        self::assertSame(3, self::head("POST / HTTP/1.1\r\nContent-Length: 3\r\ncontent-length: 3\r\n\r\n")->contentLength);
    }

    public function testAcceptsChunkedInAnyLetterCase(): void
    {
        $head = self::head("POST / HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n");

        self::assertTrue($head->chunked);
        self::assertNull($head->contentLength);
    }

    public function testAcceptsABodyOfExactlyTheLimit(): void
    {
        self::assertSame(self::MAX_BODY, self::head("POST / HTTP/1.1\r\nContent-Length: 1024\r\n\r\n")->contentLength);
    }

    public function testRefusesABodyAnnouncedLargerThanTheLimitWith413(): void
    {
        self::assertRefused(413, "POST / HTTP/1.1\r\nContent-Length: 1025\r\n\r\n", '--max-body=1024');
    }

    public function testWaitsForAnUnfinishedHeadOfExactly64KiB(): void
    {
        self::assertNull(RequestParser::head(str_pad('GET / HTTP/1.1', RequestParser::MAX_HEAD_BYTES, 'a'), self::MAX_BODY));
    }

    public function testRefusesAnUnfinishedHeadLargerThan64KiBWith431(): void
    {
        self::assertRefused(431, str_pad("GET / HTTP/1.1\r\nX: ", RequestParser::MAX_HEAD_BYTES + 1, 'a'), '64 KiB');
    }

    public function testRefusesAFinishedHeadLargerThan64KiBWith431(): void
    {
        // CallerConnection reads up to 64 KiB at a time, so a head that ends in the same read
        // that takes the buffer past 64 KiB reaches head() whole.
        self::assertRefused(431, "GET / HTTP/1.1\r\nX: " . str_repeat('a', 100_000) . "\r\n\r\n", '64 KiB');
    }

    public function testAcceptsAFinishedHeadOfExactly64KiB(): void
    {
        $start = "GET / HTTP/1.1\r\nX: ";
        $buffer = $start . str_repeat('a', RequestParser::MAX_HEAD_BYTES - \strlen($start) - 4) . "\r\n\r\n";

        self::assertSame(RequestParser::MAX_HEAD_BYTES, self::head($buffer)->length);
    }

    public function testATooLargeHeadCarriesItsTargetWhenTheRequestLineIsReadable(): void
    {
        $e = self::refusal("POST http://10.0.0.1/x HTTP/1.1\r\nX: " . str_repeat('a', 70_000));

        self::assertSame(431, $e->status);
        self::assertSame('http://10.0.0.1/x', $e->target);
    }

    public function testATooLargeBodyCarriesItsTarget(): void
    {
        $e = self::refusal("POST http://10.0.0.1/x HTTP/1.1\r\nContent-Length: 2000\r\n\r\n");

        self::assertSame(413, $e->status);
        self::assertSame('http://10.0.0.1/x', $e->target);
    }

    public function testFindsTheHeadEndAcrossWhatWasAlreadyScanned(): void
    {
        $buffer = "GET / HTTP/1.1\r\nHost: a\r\n\r\n";
        for ($scanned = 0; $scanned < \strlen($buffer); ++$scanned) {
            self::assertSame(\strlen($buffer), RequestParser::head($buffer, self::MAX_BODY, $scanned)?->length, "scanned $scanned");
        }
    }

    /** @return iterable<string, array{string}> */
    public static function bareLineFeeds(): iterable
    {
        yield 'bare LF ends the request line' => ["GET / HTTP/1.1\nHost: a\r\n\r\n"];
        yield 'bare LF in a header value' => ["GET / HTTP/1.1\r\nX-A: a\nX-B: b\r\n\r\n"];
        yield 'bare LFs only, never a CRLFCRLF' => ["GET / HTTP/1.1\nHost: a\n\n"];
        yield 'bare LF in an unfinished head' => ["GET / HTTP/1.1\r\nHost: a\n"];
    }

    #[DataProvider('bareLineFeeds')]
    public function testRefusesABareLfAtOnceWith400(string $buffer): void
    {
        self::assertRefused(400, $buffer, 'Bare LF');
    }

    /** @return iterable<string, array{string}> */
    public static function unsafeTargets(): iterable
    {
        yield 'NUL' => ["http://a.example/\x00x"];
        yield 'escape' => ["http://a.example/\x1Bx"];
        yield 'DEL' => ["http://a.example/\x7Fx"];
        yield 'raw UTF-8' => ["http://\xC3\xA9.example/"];
        yield 'latin-1 byte' => ["http://a.example/caf\xE9"];
    }

    #[DataProvider('unsafeTargets')]
    public function testRefusesControlAndNonAsciiBytesInTheTargetWith400(string $target): void
    {
        self::assertRefused(400, "GET $target HTTP/1.1\r\n\r\n", 'percent-encode');
    }

    public function testRefusesChunkedOnHttp10With400(): void
    {
        self::assertRefused(400, "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 'HTTP/1.0');
    }

    /** @return iterable<string, array{string}> */
    public static function malformedRequestLines(): iterable
    {
        yield 'two spaces' => ["GET  / HTTP/1.1\r\n\r\n"];
        yield 'tab as separator' => ["GET\t/ HTTP/1.1\r\n\r\n"];
        yield 'no version' => ["GET /\r\n\r\n"];
        yield 'HTTP/2.0' => ["GET / HTTP/2.0\r\n\r\n"];
        yield 'HTTP/1.2' => ["GET / HTTP/1.2\r\n\r\n"];
        yield 'lower-case protocol' => ["GET / http/1.1\r\n\r\n"];
        yield 'method not a token' => ["GE(T / HTTP/1.1\r\n\r\n"];
        yield 'empty request line' => ["\r\n\r\n"];
        yield 'leading empty line' => ["\r\nGET / HTTP/1.1\r\n\r\n"];
        yield 'trailing space' => ["GET / HTTP/1.1 \r\n\r\n"];
    }

    #[DataProvider('malformedRequestLines')]
    public function testRefusesAMalformedRequestLineWith400(string $buffer): void
    {
        self::assertRefused(400, $buffer, 'Malformed request line');
    }

    /** @return iterable<string, array{string}> */
    public static function malformedHeaderLines(): iterable
    {
        yield 'obs-fold continuation' => ["X-A: one\r\n two"];
        yield 'space before the colon' => ['Host : a'];
        yield 'no colon' => ['Host a'];
        yield 'empty name' => [': a'];
        yield 'name not a token' => ['X@Y: a'];
        yield 'NUL in the value' => ["X-A: a\0b"];
        yield 'bare CR in the value' => ["X-A: a\rb"];
        yield 'DEL in the value' => ["X-A: a\x7Fb"];
        yield 'escape in the value' => ["X-A: a\x1Bb"];
    }

    #[DataProvider('malformedHeaderLines')]
    public function testRefusesAMalformedHeaderLineWith400(string $line): void
    {
        self::assertRefused(400, "GET / HTTP/1.1\r\n" . $line . "\r\n\r\n", 'Malformed header line');
    }

    /** @return iterable<string, array{string, string}> */
    public static function ambiguousFramings(): iterable
    {
        $length = 'Invalid or conflicting Content-Length';
        $coding = 'Unsupported framing';
        yield 'conflicting Content-Lengths' => ["Content-Length: 5\r\nContent-Length: 6", $length];
        yield 'Content-Length list' => ['Content-Length: 5, 5', $length];
        yield 'signed Content-Length' => ['Content-Length: +5', $length];
        yield 'negative Content-Length' => ['Content-Length: -1', $length];
        yield 'hex Content-Length' => ['Content-Length: 0x5', $length];
        yield 'empty Content-Length' => ['Content-Length:', $length];
        yield 'sixteen-digit Content-Length' => ['Content-Length: 1000000000000000', $length];
        yield 'Content-Length then Transfer-Encoding' => ["Content-Length: 5\r\nTransfer-Encoding: chunked", $coding];
        yield 'Transfer-Encoding then Content-Length' => ["Transfer-Encoding: chunked\r\nContent-Length: 5", $coding];
        yield 'gzip coding' => ['Transfer-Encoding: gzip', $coding];
        yield 'gzip then chunked' => ['Transfer-Encoding: gzip, chunked', $coding];
        yield 'chunked twice in one header' => ['Transfer-Encoding: chunked, chunked', $coding];
        yield 'chunked in two headers' => ["Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked", $coding];
        yield 'identity' => ['Transfer-Encoding: identity', $coding];
    }

    #[DataProvider('ambiguousFramings')]
    public function testRefusesAnAmbiguousOrUnsupportedFramingWith400(string $lines, string $inMessage): void
    {
        self::assertRefused(400, "POST / HTTP/1.1\r\n" . $lines . "\r\n\r\n", $inMessage);
    }

    public function testBodyWaitsForEveryAnnouncedByte(): void
    {
        $buffer = "POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nhell";

        self::assertNull(RequestParser::body($buffer, self::head($buffer), self::MAX_BODY));
    }

    public function testBodyStopsAtTheAnnouncedLengthAndLeavesAPipelinedRequest(): void
    {
        $first = "POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello";
        $buffer = $first . "GET / HTTP/1.1\r\n\r\n";

        self::assertSame(['hello', \strlen($first)], RequestParser::body($buffer, self::head($buffer), self::MAX_BODY));
    }

    public function testBodyOfARequestWithoutFramingIsEmpty(): void
    {
        $buffer = "GET / HTTP/1.1\r\n\r\n";

        self::assertSame(['', \strlen($buffer)], RequestParser::body($buffer, self::head($buffer), self::MAX_BODY));
    }

    public function testBodyDecodesAChunkedBody(): void
    {
        $buffer = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n";

        self::assertSame(['abc', \strlen($buffer)], RequestParser::body($buffer, self::head($buffer), self::MAX_BODY));
    }

    public function testARepeatedHeaderBlockReadsAsItDidTheFirstTime(): void
    {
        $first = "POST https://a.example/x HTTP/1.1\r\nHost: a.example\r\nContent-Length: 3\r\nX-WarmHttp-Mode: sync\r\nAccept: */*\r\n\r\n";
        $again = self::head($first);
        self::head($first); // seen again: kept

        self::assertEquals(self::head($first), $again);
        self::assertSame([['Accept', '*/*']], $again->upstream); // Host, framing and X-WarmHttp-* are the relay's
        // Framing is checked per request, with the limit of that call: a kept block is no pass.
        try {
            RequestParser::head($first, 2);
            self::fail('a body over the limit was accepted');
        } catch (BadWireRequest $e) {
            self::assertSame(413, $e->status);
        }
    }

    public function testMoreDistinctHeaderBlocksThanAreKeptEachReadAsTheirOwn(): void
    {
        for ($round = 0; $round < 3; ++$round) { // kept from the second sight on
            for ($i = 0; $i < 100; ++$i) {
                $head = self::head("GET https://a.example/ HTTP/1.1\r\nX-Request: {$i}\r\nX-WarmHttp-Mode: sync\r\nContent-Length: {$i}\r\n\r\n");
                self::assertSame([['X-Request', (string) $i], ['X-WarmHttp-Mode', 'sync'], ['Content-Length', (string) $i]], $head->headers, "round {$round}, block {$i}");
                self::assertSame($i, $head->contentLength);
            }
        }
    }

    public function testABlockTooLargeToKeepStillParses(): void
    {
        $value = str_repeat('v', 4000);
        for ($i = 0; $i < 2; ++$i) {
            self::assertSame([['X-Big', $value], ['X-WarmHttp-Mode', 'sync']], self::head("GET https://a.example/ HTTP/1.1\r\nX-Big: {$value}\r\nX-WarmHttp-Mode: sync\r\n\r\n")->headers);
        }
    }

    private static function head(string $buffer): RequestHead
    {
        $head = RequestParser::head($buffer, self::MAX_BODY);
        self::assertNotNull($head);

        return $head;
    }

    private static function assertRefused(int $status, string $buffer, string $inMessage): void
    {
        $e = self::refusal($buffer);
        self::assertSame($status, $e->status);
        self::assertStringContainsString($inMessage, $e->getMessage());
    }

    private static function refusal(string $buffer): BadWireRequest
    {
        try {
            RequestParser::head($buffer, self::MAX_BODY);
        } catch (BadWireRequest $e) {
            return $e;
        }
        self::fail(\sprintf('Expected a refusal for %s', json_encode(mb_convert_encoding($buffer, 'UTF-8', 'ISO-8859-1'))));
    }
}
