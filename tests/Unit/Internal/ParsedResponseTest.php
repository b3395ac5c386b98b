<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Internal;

use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\MemoryStream;
use WarmHttp\Internal\ParsedResponse;

final class ParsedResponseTest extends TestCase
{
    public function testGroupsHeadersCaseInsensitivelyUnderTheFirstSpelling(): void
    {
        $response = self::response(['Set-Cookie: a=1', 'Content-Type: text/plain', 'set-cookie: b=2']);

        self::assertSame(['Set-Cookie' => ['a=1', 'b=2'], 'Content-Type' => ['text/plain']], $response->getHeaders());
        self::assertSame(['a=1', 'b=2'], $response->getHeader('SET-COOKIE'));
        self::assertSame('a=1, b=2', $response->getHeaderLine('set-cookie'));
        self::assertTrue($response->hasHeader('content-type'));
    }

    public function testAnAbsentHeaderIsEmpty(): void
    {
        $response = self::response(['A: 1']);

        self::assertFalse($response->hasHeader('B'));
        self::assertSame([], $response->getHeader('B'));
        self::assertSame('', $response->getHeaderLine('B'));
    }

    public function testTrimsSpaceAndTabAroundValuesAndKeepsEmptyOnes(): void
    {
        $response = self::response(["X-A: \t spaced \t", 'X-Empty:', 'X-Colon: a:b']);

        self::assertSame(['X-A' => ['spaced'], 'X-Empty' => [''], 'X-Colon' => ['a:b']], $response->getHeaders());
    }

    public function testToPsr7CarriesEveryPart(): void
    {
        $body = new MemoryStream('body');
        $psr7 = (new ParsedResponse(404, 'Nope', '2', ['X-A: 1'], $body))->toPsr7();

        self::assertSame(404, $psr7->getStatusCode());
        self::assertSame('Nope', $psr7->getReasonPhrase());
        self::assertSame('2', $psr7->getProtocolVersion());
        self::assertSame(['X-A' => ['1']], $psr7->getHeaders());
        self::assertSame($body, $psr7->getBody());
    }

    /** @param list<string> $lines */
    private static function response(array $lines): ParsedResponse
    {
        return new ParsedResponse(200, 'OK', '1.1', $lines, new MemoryStream(''));
    }
}
