<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Internal;

use Nyholm\Psr7\Request;
use Nyholm\Psr7\Uri;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use Psr\Http\Message\RequestInterface;
use WarmHttp\Client;
use WarmHttp\Internal\LazyRequest;

final class LazyRequestTest extends TestCase
{
    /** @return iterable<string, array{string}> */
    public static function normalUrls(): iterable
    {
        yield 'default port' => ['https://api.example.com/v1/items?page=2'];
        yield 'explicit port' => ['http://127.0.0.1:8080/fast'];
        yield 'IPv6 host' => ['https://[::1]:8443/x'];
        yield 'no path' => ['https://example.com'];
        yield 'user info' => ['https://user:pw@example.com/'];
    }

    #[DataProvider('normalUrls')]
    public function testReadsLikeTheNyholmRequestItStandsFor(string $url): void
    {
        $lazy = LazyRequest::of('GET', $url);
        self::assertInstanceOf(LazyRequest::class, $lazy);
        self::assertSameRequest((new Request('GET', $url))->withBody((new Client())->createStream()), $lazy);
    }

    /** @return iterable<string, array{string}> */
    public static function otherUrls(): iterable
    {
        yield 'upper-case scheme' => ['HTTPS://example.com/'];
        yield 'upper-case host' => ['https://Example.com/'];
        yield 'default port written' => ['https://example.com:443/'];
        yield 'fragment' => ['https://example.com/#top'];
        yield 'space in path' => ['https://example.com/a b'];
        yield 'relative' => ['/path'];
        yield 'other scheme' => ['ftp://example.com/'];
    }

    #[DataProvider('otherUrls')]
    public function testUrlsNotInNormalFormGoToNyholm(string $url): void
    {
        self::assertNull(LazyRequest::of('GET', $url));
        self::assertNull(LazyRequest::of('GET', $url), 'the second look is answered from what the first one learned');
        $request = (new Client())->createRequest('GET', $url);
        self::assertNotInstanceOf(LazyRequest::class, $request);
        self::assertSame('', (string) $request->getBody());
    }

    public function testAnUnparsableUrlIsRefusedByNyholmAsBefore(): void
    {
        self::assertNull(LazyRequest::of('GET', 'http:///'));
        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage('Unable to parse URI');
        (new Client())->createRequest('GET', 'http:///');
    }

    public function testASecondRequestForAKnownUrlReadsTheSame(): void
    {
        LazyRequest::of('GET', 'https://example.com:8443/a?b=c');
        $again = LazyRequest::of('POST', 'https://example.com:8443/a?b=c');
        self::assertInstanceOf(LazyRequest::class, $again);
        self::assertSameRequest((new Request('POST', 'https://example.com:8443/a?b=c'))->withBody((new Client())->createStream()), $again);
    }

    public function testWithersReturnAChangedCopyAndLeaveTheOriginalAsItWas(): void
    {
        $lazy = LazyRequest::of('GET', 'https://example.com/x');
        self::assertNotNull($lazy);
        $changed = $lazy->withHeader('X-A', 'b')->withMethod('PUT')->withProtocolVersion('2');
        self::assertInstanceOf(LazyRequest::class, $changed);
        self::assertFalse($changed->isAsCreated());
        self::assertSame(['Host' => ['example.com'], 'X-A' => ['b']], $changed->getHeaders());
        self::assertSame('PUT', $changed->getMethod());
        self::assertSame('2', $changed->getProtocolVersion());
        self::assertSame('b', $changed->getHeaderLine('x-a'));
        self::assertTrue($lazy->isAsCreated());
        self::assertSame(['Host' => ['example.com']], $lazy->getHeaders());
        self::assertSame('GET', $lazy->getMethod());
        $moved = $lazy->withUri($lazy->getUri()->withHost('other.example'));
        self::assertSame('other.example', $moved->getHeaderLine('Host'));
        self::assertSame('/x', $moved->withRequestTarget('/x')->getRequestTarget());
    }

    public function testABodyWrittenToIsNoLongerAsCreated(): void
    {
        $lazy = LazyRequest::of('POST', 'https://example.com/x');
        self::assertNotNull($lazy);
        self::assertTrue($lazy->isAsCreated());
        $lazy->getBody()->write('{}');
        self::assertFalse($lazy->isAsCreated());
        self::assertSame('{}', (string) $lazy->getBody());
    }

    public function testUntouchedOnlyWhileNothingWasMadeOfItNorItsBodyHandedOut(): void
    {
        $lazy = LazyRequest::of('POST', 'https://example.com/x');
        self::assertNotNull($lazy);
        self::assertTrue($lazy->untouched);
        $changed = $lazy->withHeader('X-A', 'b');
        self::assertInstanceOf(LazyRequest::class, $changed);
        self::assertFalse($changed->untouched);
        self::assertFalse($changed->isAsCreated());
        self::assertFalse($lazy->untouched, 'the copy holds the same body stream: a write to it is one to the original');
        self::assertTrue($lazy->isAsCreated(), 'isAsCreated() decides');
        $changed->getBody()->write('{}');
        self::assertFalse($lazy->isAsCreated());

        $other = LazyRequest::of('POST', 'https://example.com/x');
        self::assertNotNull($other);
        $other->getBody();
        self::assertFalse($other->untouched, 'a body handed out');
        self::assertTrue($other->isAsCreated());
    }

    /**
     * The one-regex check of URLs in normal form agrees with nyholm's parse and write-back on
     * every URL: seeded random URLs from pieces at the edges of both (cases, ports at and past
     * the limits, lone and valid %, characters nyholm encodes, user info, fragments).
     */
    public function testThePlainUrlCheckAgreesWithNyholmsParse(): void
    {
        mt_srand(16);
        $schemes = ['http', 'https', 'http', 'https', 'HTTP', 'Https', 'ftp', ''];
        $hosts = ['a.example', 'a.example', '127.0.0.1', '[::1]', 'a-b.c', 'A.example', '[::FFFF]', '[::1', 'a_b', '-x', '.x', '', 'u@a.example', 'u:p@a.example', '%61'];
        $ports = ['', '', '', '', ':8080', ':1', ':65535', ':', ':0', ':80', ':443', ':65536', ':99999', ':00080', ':8a'];
        $chars = ['a', 'Z', 'b/', '/', '/c', '?q=1', '&r=', '%41', '~', 'a', 'Z', '0', '-', '.', '_', '~', '!', '$', '&', "'", '(', ')', '*', '+', ',', ';', '=', ':', '@', '/', '//', '?', '#', '%', '%2f', '%2F', '%zz', '%4', ' ', '"', '<', '[', ']', '{', '|', '\\', '^', '`', "\u{e9}", "\t"];
        for ($i = 0; $i < 20000; ++$i) {
            $url = $schemes[mt_rand(0, \count($schemes) - 1)] . '://' . $hosts[mt_rand(0, \count($hosts) - 1)] . $ports[mt_rand(0, \count($ports) - 1)] . (mt_rand(0, 3) > 0 ? '/' : '');
            for ($n = mt_rand(0, 5); $n > 0; --$n) {
                $url .= $chars[mt_rand(0, \count($chars) - 1)];
            }
            self::assertSame(self::partsByNyholm($url), LazyRequest::of('GET', $url)?->parts, $url);
        }
    }

    /** @return array{string, string, string, int}|null what LazyRequest learned from nyholm's Uri before the regex */
    private static function partsByNyholm(string $url): ?array
    {
        try {
            $uri = new Uri($url);
        } catch (\InvalidArgumentException) {
            return null;
        }
        $scheme = $uri->getScheme();
        $host = $uri->getHost();
        if (($scheme !== 'http' && $scheme !== 'https') || $host === '' || $uri->getFragment() !== '' || (string) $uri !== $url) {
            return null;
        }
        $port = $uri->getPort();

        return [$port === null ? $host : $host . ':' . $port, $scheme, $host, $port ?? ($scheme === 'https' ? 443 : 80)];
    }

    private static function assertSameRequest(RequestInterface $expected, RequestInterface $actual): void
    {
        self::assertSame($expected->getMethod(), $actual->getMethod());
        self::assertSame((string) $expected->getUri(), (string) $actual->getUri());
        self::assertSame($expected->getHeaders(), $actual->getHeaders());
        self::assertSame($expected->getHeaderLine('host'), $actual->getHeaderLine('HOST'));
        self::assertSame($expected->hasHeader('Host'), $actual->hasHeader('host'));
        self::assertSame($expected->getHeader('X-None'), $actual->getHeader('X-None'));
        self::assertSame($expected->getProtocolVersion(), $actual->getProtocolVersion());
        self::assertSame($expected->getRequestTarget(), $actual->getRequestTarget());
        self::assertSame((string) $expected->getBody(), (string) $actual->getBody());
        self::assertSame($actual->getBody(), $actual->getBody(), 'one body stream, as nyholm keeps one');
    }
}
