<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Wire;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Wire\HeaderFilter;
use WarmHttp\Relay\Wire\RequestParser;
use WarmHttp\Relay\Wire\WireRequest;

/**
 * The parser keeps the lines for upstream in its one pass over the head: they must be exactly
 * what HeaderFilter::forUpstream() keeps, which the WireRequest of a test (no parser) uses.
 */
final class ParsedUpstreamHeadersTest extends TestCase
{
    /** @return iterable<string, array{string}> */
    public static function blocks(): iterable
    {
        yield 'the Client\'s sync request' => ["Host: 127.0.0.1:8443\r\nUser-Agent: WarmHttp/0.1.0\r\nAccept-Encoding: gzip\r\nX-WarmHttp-Mode: sync\r\nX-WarmHttp-Transfer: verify=1; timeout=10\r\n"];
        yield 'none' => [''];
        yield 'every hop-by-hop name, any case' => ["KEEP-ALIVE: 5\r\nTe: trailers\r\nTrailer: X\r\nUpgrade: h2c\r\nExpect: 100-continue\r\nHOST: a\r\nContent-Length: 3\r\nA: 1\r\n"];
        yield 'Proxy-* and X-WarmHttp-* prefixes, and near misses' => ["Proxy-Authorization: x\r\nproxy-foo: y\r\nProxyish: z\r\nX-WarmHttp-Token: t\r\nx-warmhttp-guard: on\r\nX-WarmHttpish: k\r\nX-Other: v\r\n"];
        yield 'a Connection line naming others' => ["Connection: close, X-Secret, Keep-Alive\r\nX-Secret: s\r\nx-secret: s2\r\nClose: c\r\nB: 2\r\n"];
        yield 'a plain Connection line' => ["Connection: keep-alive\r\nB: 2\r\n"];
        yield 'duplicates, empty values, spaces' => ["A: 1\r\na:2\r\nEmpty:\r\nSpaced: \t v \t\r\nA: 3\r\n"];
        yield 'Transfer-Encoding' => ["Transfer-Encoding: chunked\r\nX: y\r\n"];
    }

    #[DataProvider('blocks')]
    public function testKeepsWhatTheFilterKeeps(string $block): void
    {
        $head = RequestParser::head("POST https://example.com/x HTTP/1.1\r\n{$block}\r\n", 1 << 20);
        self::assertNotNull($head);
        $parsed = new WireRequest($head->method, $head->target, $head->headers, '', $head->http10, $head->index, $head->upstream);
        $unparsed = new WireRequest($head->method, $head->target, $head->headers, '');

        self::assertSame(HeaderFilter::forUpstream($head->headers), $parsed->upstreamHeaders());
        self::assertSame(HeaderFilter::forUpstream($head->headers), $unparsed->upstreamHeaders());
    }

    public function testLeavesAConnectionLineToTheFilter(): void
    {
        $head = RequestParser::head("GET https://example.com/ HTTP/1.1\r\nConnection: X-A\r\nX-A: 1\r\n\r\n", 1 << 20);

        self::assertNotNull($head);
        self::assertNull($head->upstream);
    }
}
