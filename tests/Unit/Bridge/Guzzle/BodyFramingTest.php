<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Bridge\Guzzle;

use GuzzleHttp\Psr7\Request;
use GuzzleHttp\Psr7\Utils;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Bridge\Guzzle\BodyFraming;

/** Guzzle's CurlFactory: `Content-Length: 0` first for a bodiless POST or PUT, no body on HEAD. */
final class BodyFramingTest extends TestCase
{
    /** @return iterable<string, array{string}> */
    public static function framed(): iterable
    {
        yield 'POST' => ['POST'];
        yield 'PUT' => ['PUT'];
    }

    #[DataProvider('framed')]
    public function testABodilessPostOrPutGetsContentLengthZeroBeforeItsOwnHeaders(string $method): void
    {
        $request = new Request($method, 'http://example.com/x', ['User-Agent' => 'GuzzleHttp/7', 'X-A' => ['1', '2']]);

        $framed = BodyFraming::apply($request);

        self::assertSame(['Content-Length', 'Host', 'User-Agent', 'X-A'], array_keys($framed->getHeaders()));
        self::assertSame(['1', '2'], $framed->getHeader('X-A'));
        self::assertSame('0', $framed->getHeaderLine('Content-Length'));
    }

    public function testAHeadRequestGoesWithoutItsBody(): void
    {
        $framed = BodyFraming::apply(new Request('HEAD', 'http://example.com/', ['Content-Length' => '3', 'X-A' => '1'], 'abc'));

        self::assertSame('', (string) $framed->getBody());
        self::assertSame(['Host', 'X-A'], array_keys($framed->getHeaders()));
    }

    /** @return iterable<string, array{Request}> */
    public static function leftAlone(): iterable
    {
        yield 'PATCH (Guzzle sends no Content-Length)' => [new Request('PATCH', 'http://example.com/')];
        yield 'GET' => [new Request('GET', 'http://example.com/')];
        yield 'a bodiless HEAD' => [new Request('HEAD', 'http://example.com/')];
        yield 'a body' => [new Request('POST', 'http://example.com/', [], 'abc')];
        yield 'a body of unknown size' => [new Request('POST', 'http://example.com/', [], Utils::streamFor((static function (): \Generator {
            yield 'abc';
        })()))];
        yield 'its own Content-Length' => [new Request('POST', 'http://example.com/', ['X-A' => '1', 'Content-Length' => '0'])];
    }

    #[DataProvider('leftAlone')]
    public function testOtherRequestsAreLeftAlone(Request $request): void
    {
        self::assertSame($request, BodyFraming::apply($request));
    }
}
