<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Wire;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Wire\HeaderFilter;

final class HeaderFilterTest extends TestCase
{
    /** @return iterable<string, array{string}> */
    public static function droppedNames(): iterable
    {
        foreach (['Connection', 'Keep-Alive', 'TE', 'Trailer', 'Transfer-Encoding', 'Upgrade', 'Content-Length', 'Expect', 'Host'] as $name) {
            yield $name => [$name];
        }
        yield 'Proxy-Authorization' => ['Proxy-Authorization'];
        yield 'Proxy-Connection' => ['proxy-connection'];
        yield 'X-WarmHttp-Token' => ['X-WarmHttp-Token'];
        yield 'X-WarmHttp-Mode in capitals' => ['X-WARMHTTP-MODE'];
    }

    #[DataProvider('droppedNames')]
    public function testDropsHopByHopProxyAndRelayHeaders(string $name): void
    {
        self::assertSame([['Accept', 'application/json']], HeaderFilter::forUpstream([[$name, 'x'], ['Accept', 'application/json']]));
    }

    public function testKeepsEndToEndHeadersInOrderWithTheirRepeats(): void
    {
        $headers = [['Authorization', 'Bearer t'], ['X-Tag', 'a'], ['Content-Type', 'text/plain'], ['X-Tag', 'b'], ['Idempotency-Key', 'k']];

        self::assertSame($headers, HeaderFilter::forUpstream($headers));
    }

    public function testDropsTheHeadersTheConnectionHeaderNames(): void
    {
        $kept = HeaderFilter::forUpstream([
            ['Connection', 'keep-alive, X-Secret ,x-other'],
            ['X-Secret', '1'],
            ['X-Other', '2'],
            ['X-Kept', '3'],
        ]);

        self::assertSame([['X-Kept', '3']], $kept);
    }

    public function testForCallerFlattensAResponseHeaderMapAndFiltersIt(): void
    {
        $lines = HeaderFilter::forCaller([
            'Content-Type' => ['application/json'],
            'Set-Cookie' => ['a=1', 'b=2'],
            'Transfer-Encoding' => ['chunked'],
            'Content-Length' => ['10'],
            'Connection' => ['keep-alive'],
        ]);

        self::assertSame([['Content-Type', 'application/json'], ['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2']], $lines);
    }

    public function testForCallerDropsWhatAHostileDestinationSendsToSteerTheCaller(): void
    {
        $lines = HeaderFilter::forCaller([
            'X-WarmHttp-Error' => ['forged by the destination'],
            'X-WarmHttp-Id' => ['1-2'],
            'Connection' => ['X-Steer'],
            'X-Steer' => ['1'],
            'Keep-Alive' => ['timeout=1'],
            'Upgrade' => ['h2c'],
            'Proxy-Authenticate' => ['Basic'],
            'X-Kept' => ['yes'],
        ]);

        self::assertSame([['X-Kept', 'yes']], $lines);
    }

    /** @return iterable<string, array{array<string, list<string>>}> */
    public static function linesThatWouldBreakTheCallersFraming(): iterable
    {
        yield 'CR LF in a value' => [['X-A' => ["a\r\nContent-Length: 0"]]];
        yield 'bare LF in a value' => [['X-A' => ["a\nb"]]];
        yield 'bare CR in a value' => [['X-A' => ["a\rb"]]];
        yield 'NUL in a value' => [['X-A' => ["a\0b"]]];
        yield 'a colon in a name' => [['X-A: b' => ['c']]];
        yield 'a space in a name' => [['X A' => ['c']]];
        yield 'CR LF in a name' => [["X-A\r\nX-B" => ['c']]];
        yield 'an empty name' => [['' => ['c']]];
    }

    /** @param array<string, list<string>> $headers */
    #[DataProvider('linesThatWouldBreakTheCallersFraming')]
    public function testForCallerNeverPassesALineThatWouldBreakTheCallersFraming(array $headers): void
    {
        self::assertSame([['X-Kept', 'yes']], HeaderFilter::forCaller([...$headers, 'X-Kept' => ['yes']]));
    }
}
