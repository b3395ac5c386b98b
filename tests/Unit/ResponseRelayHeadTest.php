<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\MalformedResponse;
use WarmHttp\Internal\MemoryStream;
use WarmHttp\Internal\ResponseParser;
use WarmHttp\Response;

/**
 * Response::ofRelayHead() is ResponseParser::parse() for the heads it takes: the same status,
 * reason, version, headers, body and stats, and it takes none that ResponseParser refuses.
 */
final class ResponseRelayHeadTest extends TestCase
{
    private const INFO = ['header_size' => 0, 'num_connects' => 0, 'http_version' => \CURL_HTTP_VERSION_1_1, 'primary_ip' => '/run/relay.sock', 'primary_port' => 80];

    /** @return iterable<string, array{string}> */
    public static function takenHeads(): iterable
    {
        yield 'an h2 destination as the relay writes it' => ["HTTP/2 200  \r\nserver: nginx\r\ndate: Sat, 28 Nov 2026 10:55:57 GMT\r\ncontent-type: text/plain\r\nContent-Length: 2\r\n\r\n"];
        yield 'HTTP/1.1 with a reason' => ["HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nX-Tag: a\r\nx-tag: b\r\nContent-Length: 8\r\n\r\n"];
        yield 'HTTP/1.0' => ["HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n"];
        yield 'no reason, no space' => ["HTTP/1.1 204\r\nX-A: 1\r\n\r\n"];
        yield 'no field line' => ["HTTP/1.1 200 OK\r\n\r\n"];
        yield 'no field line, blanks after the reason' => ["HTTP/1.1 200 OK \t \r\n\r\n"];
        yield 'no field line, a tab leading the reason' => ["HTTP/1.1 200 \t OK \r\n\r\n"];
        yield 'no field line, blanks only' => ["HTTP/1.1 200 \t \r\n\r\n"];
        yield 'blanks after the reason' => ["HTTP/1.1 200 OK  \r\nA: b\r\n\r\n"];
        yield 'obs-text in reason and value' => ["HTTP/1.1 200 \xE9t\xE9\r\nX-Name: caf\xE9\r\n\r\n"];
        yield 'empty and blank values' => ["HTTP/1.1 200 OK\r\nX-Empty:\r\nX-Blank: \t \r\nX-Last: v \t\r\n\r\n"];
        yield 'the lowest and highest status' => ["HTTP/1.1 599 Odd\r\nA: b\r\n\r\n"];
        yield 'an interim status' => ["HTTP/1.1 100 Continue\r\n\r\n"];
        yield 'the relay\'s own answer' => ["HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain; charset=utf-8\r\nX-WarmHttp-Error: upstream failed\r\nX-WarmHttp-Failure: network 7\r\nContent-Length: 16\r\n\r\n"];
    }

    #[DataProvider('takenHeads')]
    public function testReadsAHeadAsResponseParserDoes(string $head): void
    {
        $fast = Response::ofRelayHead($head, self::INFO, new MemoryStream('ok'));
        self::assertNotNull($fast);
        self::assertSameResponse(ResponseParser::parse($head, \strlen($head), self::INFO, new MemoryStream('ok')), $fast);
    }

    /** @return iterable<string, array{string}> */
    public static function otherHeads(): iterable
    {
        yield 'a bare LF' => ["HTTP/1.1 200 OK\nA: b\r\n\r\n"];
        yield 'a bare LF in a field' => ["HTTP/1.1 200 OK\r\nA: b\nEvil: 1\r\n\r\n"];
        yield 'a CR in the reason' => ["HTTP/1.1 200 O\rK\r\nA: b\r\n\r\n"];
        yield 'a NUL in a value' => ["HTTP/1.1 200 OK\r\nA: b\x00c\r\n\r\n"];
        yield 'a NUL ending the last value' => ["HTTP/1.1 200 OK\r\nA: b\x00\r\n\r\n"];
        yield 'a space before the colon' => ["HTTP/1.1 200 OK\r\nA : b\r\n\r\n"];
        yield 'a folded line' => ["HTTP/1.1 200 OK\r\nA: b\r\n c\r\n\r\n"];
        yield 'a status out of range' => ["HTTP/1.1 600 Odd\r\n\r\n"];
        yield 'a two-digit status' => ["HTTP/1.1 20 OK\r\n\r\n"];
        yield 'no space before the reason' => ["HTTP/1.1 200OK\r\n\r\n"];
        yield 'HTTP/0.9' => ["HTTP/0.9 200 OK\r\n\r\n"];
        yield 'HTTP/3' => ["HTTP/3 200\r\n\r\n"];
        yield 'an interim head before the final one' => ["HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nA: b\r\n\r\n"];
        yield 'no empty line' => ["HTTP/1.1 200 OK\r\nA: b\r\n"];
        yield 'a control character in the reason' => ["HTTP/1.1 200 O\x01K\r\n\r\n"];
        yield 'a vertical tab ending the last value' => ["HTTP/1.1 200 OK\r\nA: b\x0B\r\n\r\n"];
    }

    #[DataProvider('otherHeads')]
    public function testLeavesAnyOtherHeadToResponseParser(string $head): void
    {
        self::assertNull(Response::ofRelayHead($head, self::INFO, new MemoryStream('')));
    }

    /**
     * Random heads from the characters that matter at each place: whatever ofRelayHead() takes,
     * ResponseParser takes too, and reads the same.
     */
    public function testTakesNoHeadResponseParserRefuses(): void
    {
        mt_srand(16);
        $pieces = ['HTTP/1.1', 'HTTP/1.0', 'HTTP/2', 'HTTP/3', ' ', '  ', "\t", '200', '599', '600', '099', 'OK', "\xE9", "\r\n", "\n", "\r", "\x00", "\x0B", "\x7F", 'A', 'b-c', ':', ': ', "\r\n\r\n"];
        $taken = 0;
        for ($i = 0; $i < 3000; ++$i) {
            $head = ['HTTP/1.1', 'HTTP/2', 'HTTP/1.0'][$i % 3] . ' ' . ['200', '204', '404'][$i % 3];
            for ($n = mt_rand(0, 12); $n > 0; --$n) {
                $head .= $pieces[mt_rand(0, \count($pieces) - 1)];
            }
            $head .= "\r\n\r\n";
            $fast = Response::ofRelayHead($head, self::INFO, new MemoryStream(''));
            if ($fast === null) {
                continue;
            }
            ++$taken;
            try {
                $parsed = ResponseParser::parse($head, \strlen($head), self::INFO, new MemoryStream(''));
            } catch (MalformedResponse $e) {
                self::fail(\sprintf('ofRelayHead() took %s, which ResponseParser refuses: %s', json_encode($head), $e->getMessage()));
            }
            self::assertSameResponse($parsed, $fast);
        }
        self::assertGreaterThan(100, $taken);
    }

    private static function assertSameResponse(Response $expected, Response $actual): void
    {
        self::assertSame($expected->getStatusCode(), $actual->getStatusCode());
        self::assertSame($expected->getReasonPhrase(), $actual->getReasonPhrase());
        self::assertSame($expected->getProtocolVersion(), $actual->getProtocolVersion());
        self::assertSame($expected->getHeaders(), $actual->getHeaders());
        self::assertSame((string) $expected->getBody(), (string) $actual->getBody());
        self::assertEquals($expected->stats(), $actual->stats());
        self::assertSame($expected->withHeader('X-Added', '1')->getHeaders(), $actual->withHeader('X-Added', '1')->getHeaders());
    }
}
