<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\App;

use Nyholm\Psr7\Request;
use PHPUnit\Framework\TestCase;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\StreamInterface;
use WarmHttp\Internal\LazyRequest;
use WarmHttp\Internal\MemoryStream;
use WarmHttp\Internal\UserAgent;
use WarmHttp\Relay\App\SyncRequestBytes;

final class SyncRequestBytesTest extends TestCase
{
    private const RELAY_LINES = "X-WarmHttp-Mode: sync\r\nX-WarmHttp-Token: t\r\n";

    private const SETTINGS = 'X-WarmHttp-Transfer: verify=1; timeout=30';

    public function testAGetGoesAsTheCurlHopWritesIt(): void
    {
        $request = self::request('GET', 'https://api.example/a?b=1#frag')->withHeader('Accept', 'application/json');

        self::assertSame(
            "GET https://api.example/a?b=1 HTTP/1.1\r\nHost: api.example\r\nAccept-Encoding: gzip\r\nAccept: application/json\r\n" . UserAgent::HEADER_LINE . "\r\n"
            . self::RELAY_LINES . self::SETTINGS . "\r\n\r\n",
            self::bytes()->encode($request),
        );
    }

    /** createRequest()'s LazyRequest goes by its strings: byte for byte what the general path writes. */
    public function testItsUserAgentLineIsTheClients(): void
    {
        self::assertSame(UserAgent::HEADER_LINE, SyncRequestBytes::USER_AGENT_LINE);
    }

    public function testARequestAsCreatedGoesAsTheSameRequestBuiltByNyholm(): void
    {
        $urls = ['https://api.example/a?b=1', 'http://api.example:8080/p%20q?x=%C3%A9', 'https://[::1]:8443/', 'http://api.example'];
        $clients = [self::bytes(), new SyncRequestBytes(self::RELAY_LINES, self::SETTINGS, null, null), new SyncRequestBytes(self::RELAY_LINES, self::SETTINGS, '2', 'gzip, br')];
        foreach ($urls as $url) {
            foreach (['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as $method) {
                $lazy = LazyRequest::of($method, $url);
                self::assertNotNull($lazy, $url);
                self::assertSame(SyncRequestBytes::fits(self::request($method, $url)), SyncRequestBytes::fits($lazy), $method . ' ' . $url);
                foreach ($clients as $bytes) {
                    self::assertSame($bytes->encode(self::request($method, $url)), $bytes->encode($lazy), $method . ' ' . $url);
                }
            }
        }
        $changed = LazyRequest::of('GET', $urls[0])?->withHeader('Accept', 'text/plain');
        self::assertNotNull($changed);
        self::assertStringContainsString("\r\nAccept: text/plain\r\n", self::bytes()->encode($changed), 'a changed one goes the general way');
    }

    public function testABodyIsSentWholeWithItsLengthAndTheRequestsOwnFramingGoes(): void
    {
        $request = self::request('POST', 'http://api.example/x', '{"a":1}')->withHeader('Content-Length', '999')->withHeader('User-Agent', 'mine');

        $wire = self::bytes()->encode($request);

        self::assertStringNotContainsString('999', $wire);
        self::assertStringNotContainsString(UserAgent::HEADER_LINE, $wire);
        self::assertStringContainsString("User-Agent: mine\r\n", $wire);
        self::assertStringEndsWith(self::RELAY_LINES . self::SETTINGS . "\r\nContent-Length: 7\r\n\r\n{\"a\":1}", $wire);
    }

    public function testAnEmptyBodyIsAnnouncedForPostPutPatchOnly(): void
    {
        foreach (['POST', 'PUT', 'PATCH'] as $method) {
            self::assertStringContainsString("\r\nContent-Length: 0\r\n", self::bytes()->encode(self::request($method, 'http://api.example/')), $method);
        }
        foreach (['GET', 'DELETE', 'HEAD', 'OPTIONS'] as $method) {
            self::assertStringNotContainsString('Content-Length', self::bytes()->encode(self::request($method, 'http://api.example/')), $method);
        }
        self::assertStringContainsString("\r\nContent-Length: 0\r\n", self::bytes()->encode(self::request('GET', 'http://api.example/')->withHeader('Content-Length', '0')));
    }

    public function testTheCallersOwnRelayLinesGoAndEmptyValuesKeepTheirName(): void
    {
        $request = self::request('GET', 'http://api.example/')->withHeader('X-WarmHttp-Mode', 'async')->withHeader('X-Empty', '');

        $wire = self::bytes()->encode($request);

        self::assertSame(1, substr_count($wire, 'X-WarmHttp-Mode'));
        self::assertStringContainsString("\r\nX-Empty:\r\n", $wire);
    }

    public function testARequestWithItsOwnAcceptEncodingGetsTheBytesAsTheyCame(): void
    {
        $request = self::request('GET', 'http://api.example/')->withHeader('Accept-Encoding', 'br');

        self::assertFalse(self::bytes()->decodes($request));
        self::assertSame(1, substr_count(self::bytes()->encode($request), 'Accept-Encoding'));
        self::assertFalse((new SyncRequestBytes(self::RELAY_LINES, self::SETTINGS, null, null))->decodes(self::request('GET', 'http://api.example/')));
    }

    public function testTheRequestsVersionTravelsInTheSettingsUnlessTheClientNamesOne(): void
    {
        $request = self::request('GET', 'http://api.example/')->withProtocolVersion('2');

        self::assertStringContainsString(self::SETTINGS . "; version=2\r\n", self::bytes()->encode($request));
        self::assertStringContainsString(self::SETTINGS . "; version=1.1\r\n", (new SyncRequestBytes(self::RELAY_LINES, self::SETTINGS, '1.1', 'gzip'))->encode($request));
    }

    public function testOnlyBodiesKnownUpFrontFit(): void
    {
        self::assertTrue(SyncRequestBytes::fits(self::request('POST', 'http://a/', str_repeat('x', 1 << 20))));
        self::assertFalse(SyncRequestBytes::fits(self::request('POST', 'http://a/', str_repeat('x', (1 << 20) + 1))));
        self::assertFalse(SyncRequestBytes::fits(self::request('POST', 'http://a/', 'x')->withHeader('Expect', '100-continue')));
        self::assertFalse(SyncRequestBytes::fits(self::request('POST', 'http://a/', 'x')->withHeader('Transfer-Encoding', 'chunked')));
        self::assertFalse(SyncRequestBytes::fits(self::request('HEAD', 'http://a/', 'x')));
        self::assertTrue(SyncRequestBytes::fits(self::request('HEAD', 'http://a/')));
        $unseekable = self::createStub(StreamInterface::class);
        $unseekable->method('getSize')->willReturn(3);
        $unseekable->method('isSeekable')->willReturn(false);
        self::assertFalse(SyncRequestBytes::fits(self::request('POST', 'http://a/')->withBody($unseekable)));
        $unsized = self::createStub(StreamInterface::class);
        $unsized->method('getSize')->willReturn(null);
        self::assertFalse(SyncRequestBytes::fits(self::request('POST', 'http://a/')->withBody($unsized)));
    }

    private static function bytes(): SyncRequestBytes
    {
        return new SyncRequestBytes(self::RELAY_LINES, self::SETTINGS, null, 'gzip');
    }

    private static function request(string $method, string $url, string $body = ''): RequestInterface
    {
        return (new Request($method, $url))->withBody(new MemoryStream($body));
    }
}
