<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Outbound;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Outbound\UpstreamOptions;

final class UpstreamOptionsTest extends TestCase
{
    public function testABodilessGetIsAPlainGet(): void
    {
        $curl = UpstreamOptions::build('GET', 'https://a.test/', [['Accept', 'application/json']], '', true, []);

        self::assertTrue($curl[\CURLOPT_HTTPGET]);
        self::assertSame(\CURL_HTTP_VERSION_2TLS, $curl[\CURLOPT_HTTP_VERSION]);
        self::assertSame(['Accept: application/json', 'Expect:'], $curl[\CURLOPT_HTTPHEADER]);
        self::assertArrayNotHasKey(\CURLOPT_FRESH_CONNECT, $curl);
    }

    public function testAResendableBodyGoesInlineAndCurlWritesItsLength(): void
    {
        $curl = UpstreamOptions::build('POST', 'http://a.test/', [['Content-Length', '999'], ['Content-Type', 'text/plain']], 'hello', true, []);

        self::assertSame('POST', $curl[\CURLOPT_CUSTOMREQUEST]);
        self::assertSame('hello', $curl[\CURLOPT_POSTFIELDS]);
        self::assertSame(['Content-Type: text/plain', 'Accept:', 'Expect:'], $curl[\CURLOPT_HTTPHEADER]);
    }

    public function testCurlAddsNoAcceptAndNoFormTypeTheCallerDidNotSend(): void
    {
        $withBody = UpstreamOptions::build('PUT', 'http://a.test/', [['X-Empty', '']], 'data', true, []);
        $bodiless = UpstreamOptions::build('GET', 'http://a.test/', [], '', true, []);

        self::assertSame(['X-Empty;', 'Accept:', 'Content-Type:', 'Expect:'], $withBody[\CURLOPT_HTTPHEADER]);
        self::assertSame(['Accept:', 'Expect:'], $bodiless[\CURLOPT_HTTPHEADER]);
    }

    public function testABodyThatMustNotGoTwiceIsReadThroughACallbackThatCannotRewind(): void
    {
        $curl = UpstreamOptions::build('POST', 'http://a.test/', [], 'abcdef', false, []);

        self::assertArrayNotHasKey(\CURLOPT_POSTFIELDS, $curl);
        self::assertTrue($curl[\CURLOPT_UPLOAD]);
        self::assertSame(6, $curl[\CURLOPT_INFILESIZE]);
        $read = $curl[\CURLOPT_READFUNCTION];
        self::assertIsCallable($read);
        $handle = curl_init();
        self::assertSame('abcd', $read($handle, null, 4));
        self::assertSame('ef', $read($handle, null, 4));
        self::assertSame('', $read($handle, null, 4));
    }

    public function testABodilessRequestThatMustNotGoTwiceTakesAFreshConnection(): void
    {
        $curl = UpstreamOptions::build('DELETE', 'http://a.test/x', [], '', false, []);

        self::assertTrue($curl[\CURLOPT_FRESH_CONNECT]);
        self::assertSame('DELETE', $curl[\CURLOPT_CUSTOMREQUEST]);
    }

    public function testAnEmptyPostStillAnnouncesItsEmptyBody(): void
    {
        $curl = UpstreamOptions::build('POST', 'http://a.test/', [], '', true, []);

        self::assertSame('', $curl[\CURLOPT_POSTFIELDS]);
    }

    public function testHeadAndAGetWithABodyKeepTheirMethod(): void
    {
        self::assertTrue(UpstreamOptions::build('HEAD', 'http://a.test/', [], '', true, [])[\CURLOPT_NOBODY]);
        $get = UpstreamOptions::build('GET', 'http://a.test/', [], 'q', true, []);
        self::assertSame('GET', $get[\CURLOPT_CUSTOMREQUEST]);
        self::assertSame('q', $get[\CURLOPT_POSTFIELDS]);
    }

    public function testTheRelaysClientOptionsAreKeptAndPlainHttpIsHttp11(): void
    {
        $curl = UpstreamOptions::build('GET', 'http://a.test/', [], '', true, [\CURLOPT_TIMEOUT_MS => 5000]);

        self::assertSame('http://a.test/', $curl[\CURLOPT_URL]);
        self::assertSame(5000, $curl[\CURLOPT_TIMEOUT_MS]);
        self::assertSame(\CURL_HTTP_VERSION_1_1, $curl[\CURLOPT_HTTP_VERSION]);
    }

    public function testEveryNameAndPortConnectsToTheCheckedAddress(): void
    {
        $v4 = UpstreamOptions::pinned([\CURLOPT_URL => 'http://a.test:8080/'], '203.0.113.7', 8080);
        $v6 = UpstreamOptions::pinned([], '2001:db8::7', 443);

        self::assertSame(['::203.0.113.7:8080'], $v4[\CURLOPT_CONNECT_TO], 'an empty host and port match whatever name curl derives from the URL');
        self::assertSame(['::[2001:db8::7]:443'], $v6[\CURLOPT_CONNECT_TO]);
        self::assertArrayNotHasKey(\CURLOPT_RESOLVE, $v4, 'RESOLVE pinned one spelling only');
    }

    public function testTheRelayNeverGoesThroughAProxyWhateverTheEnvironmentSays(): void
    {
        self::assertSame([\CURLOPT_PROXY => '', \CURLOPT_NOPROXY => '*'], UpstreamOptions::direct());
    }
    /**
     * Upstream keeps one base per settings, method, scheme and body presence: a request built
     * on a base made for another URL gets exactly what build() gives it, in the same order
     * (curl_setopt_array sets them in order).
     */
    public function testABaseMadeForAnotherUrlBuildsWhatBuildDoes(): void
    {
        $client = [\CURLOPT_TIMEOUT_MS => 5000, \CURLOPT_PROXY => ''];
        $shapes = [
            ['GET', 'https://a.test/first', [['Accept', 'text/plain']], '', true],
            ['POST', 'https://a.test/x', [['Content-Type', 'text/plain']], 'body', true],
            ['POST', 'http://a.test/y', [], 'body', false],
            ['DELETE', 'http://a.test/z', [], '', false],
            ['HEAD', 'https://a.test/h', [], '', true],
            ['PUT', 'https://a.test/p', [], '', true],
        ];
        foreach ($shapes as [$method, $url, $headers, $body, $resendable]) {
            $base = UpstreamOptions::base($method, str_replace('a.test', 'other.test', $url) . '?earlier', $body !== '', $client);
            $built = UpstreamOptions::build($method, $url, $headers, $body, $resendable, $client);
            $onBase = UpstreamOptions::onBase($base, $method, $url, $headers, $body, $resendable);

            unset($built[\CURLOPT_READFUNCTION], $onBase[\CURLOPT_READFUNCTION]); // closures: never the same object
            self::assertSame($built, $onBase, $method . ' ' . $url);
        }
    }
}
