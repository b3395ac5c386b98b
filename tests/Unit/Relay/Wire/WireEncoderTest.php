<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Wire;

use Nyholm\Psr7\Request;
use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\MemoryStream;
use WarmHttp\Relay\Wire\RequestParser;
use WarmHttp\Relay\Wire\WireEncoder;

final class WireEncoderTest extends TestCase
{
    public function testWritesAnAbsoluteFormRequestWithModeTokenAndLength(): void
    {
        $request = new Request('POST', 'https://api.example.com:8443/x?y=1#frag', ['Content-Type' => 'application/json'], '{"a":1}');

        self::assertSame(
            "POST https://api.example.com:8443/x?y=1 HTTP/1.1\r\nHost: api.example.com:8443\r\nX-WarmHttp-Mode: async\r\n"
            . "X-WarmHttp-Token: secret\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}",
            WireEncoder::encode($request, 'async', 'secret'),
        );
    }

    public function testLeavesOutTheTokenWhenThereIsNone(): void
    {
        self::assertStringNotContainsString('X-WarmHttp-Token', WireEncoder::encode(new Request('GET', 'http://a.example/'), 'sync', null));
    }

    public function testReplacesTheCallersFramingAndConnectionHeaders(): void
    {
        $request = new Request('POST', 'http://a.example/', [
            'Host' => 'evil.example',
            'Content-Length' => '999',
            'Transfer-Encoding' => 'chunked',
            'Connection' => 'close',
            'X-Tag' => ['a', 'b'],
        ], 'abc');

        $wire = WireEncoder::encode($request, 'async', null);

        self::assertSame(
            "POST http://a.example/ HTTP/1.1\r\nHost: a.example\r\nX-WarmHttp-Mode: async\r\nX-Tag: a\r\nX-Tag: b\r\nContent-Length: 3\r\n\r\nabc",
            $wire,
        );
    }

    public function testSendsTheWholeBodyEvenWhenItWasPartlyRead(): void
    {
        $body = new MemoryStream('hello');
        $body->read(3);

        self::assertStringEndsWith("Content-Length: 5\r\n\r\nhello", WireEncoder::encode(new Request('PUT', 'http://a.example/', [], $body), 'async', null));
    }

    public function testTheRelaysParserReadsWhatTheEncoderWrites(): void
    {
        $wire = WireEncoder::encode(new Request('PATCH', 'https://a.example/p', ['X-A' => 'b'], 'body'), 'sync', 't');

        $head = RequestParser::head($wire, 100);

        self::assertNotNull($head);
        self::assertSame('PATCH', $head->method);
        self::assertSame('https://a.example/p', $head->target);
        self::assertSame(['body', \strlen($wire)], RequestParser::body($wire, $head, 100));
    }

    public function testTheClientsModeAndTokenAreTheOnlyRelayHeaders(): void
    {
        $request = new Request('GET', 'http://a.example/', ['X-WarmHttp-Mode' => 'async', 'x-warmhttp-token' => 'forged', 'X-WarmHttp-Anything' => '1', 'X-Kept' => 'yes']);

        $wire = WireEncoder::encode($request, 'sync', 'real');

        self::assertSame("GET http://a.example/ HTTP/1.1\r\nHost: a.example\r\nX-WarmHttp-Mode: sync\r\nX-WarmHttp-Token: real\r\nX-Kept: yes\r\nContent-Length: 0\r\n\r\n", $wire);
    }

    public function testTheHostHeaderCarriesNoUserInfo(): void
    {
        self::assertStringContainsString("\r\nHost: a.example:8080\r\n", WireEncoder::encode(new Request('GET', 'http://user:pw@a.example:8080/'), 'async', null));
    }

    public function testEncodesFromPartsAsFromARequest(): void
    {
        $request = new Request('POST', 'https://a.example:8443/p?q=1', ['X-A' => 'b', 'X-WarmHttp-Mode' => 'sync'], 'body');

        self::assertSame(
            WireEncoder::encode($request, 'async', 't'),
            WireEncoder::encodeParts('POST', 'https://a.example:8443/p?q=1', [['X-A', 'b'], ['X-WarmHttp-Mode', 'sync']], 'body', 'async', 't'),
        );
    }
}
