<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Internal;

use Nyholm\Psr7\Request;
use Nyholm\Psr7\Uri;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use Psr\Http\Message\RequestInterface;
use WarmHttp\Exception\RequestException;
use WarmHttp\Internal\LazyRequest;
use WarmHttp\Internal\RequestGuard;

final class RequestGuardTest extends TestCase
{
    public function testLetsAnOrdinaryRequestThrough(): void
    {
        $this->expectNotToPerformAssertions();

        RequestGuard::check(new Request('POST', 'https://api.example.com/x?y=1', ['Content-Type' => 'application/json', 'X-Empty' => ''], '{}'));
    }

    public function testLetsAnExtensionMethodThrough(): void
    {
        $this->expectNotToPerformAssertions();

        RequestGuard::check(new Request('PROPFIND', 'http://dav.example.com/'));
    }

    /** @return iterable<string, array{string}> */
    public static function badMethods(): iterable
    {
        yield 'a space' => ['GET /evil HTTP/1.1'];
        yield 'CRLF' => ["GET\r\nX-Injected: 1"];
        yield 'NUL' => ["GET\0"];
        yield 'a separator' => ['GET(1)'];
        yield 'non-ASCII' => ['GÉT'];
    }

    #[DataProvider('badMethods')]
    public function testRefusesAMethodThatIsNotAToken(string $method): void
    {
        self::assertRefused(new Request($method, 'https://a.example/'), 'Invalid HTTP method ' . json_encode($method));
    }

    #[DataProvider('badMethods')]
    public function testRefusesAMethodThatIsNotATokenOnARequestAsCreated(string $method): void
    {
        $request = LazyRequest::of($method, 'https://a.example/');
        self::assertNotNull($request);
        self::assertTrue($request->isAsCreated());

        self::assertRefused($request, 'Invalid HTTP method ' . json_encode($method));
    }

    public function testRefusesAnEmptyMethod(): void
    {
        self::assertRefused((new Request('GET', 'https://a.example/'))->withMethod(''), 'Invalid HTTP method ""');
    }

    /** @return iterable<string, array{string|Uri, string}> */
    public static function badUris(): iterable
    {
        yield 'relative' => ['/path', 'is not absolute'];
        yield 'a scheme but no host' => [(new Uri('/path'))->withScheme('http'), 'is not absolute'];
        yield 'a host but no scheme' => [(new Uri('//a.example/path')), 'is not absolute'];
        yield 'ftp' => ['ftp://files.example.com/a', 'Unsupported URI scheme "ftp"'];
        yield 'file' => ['file://localhost/etc/passwd', 'Unsupported URI scheme "file"'];
        yield 'gopher' => ['gopher://a.example/', 'Unsupported URI scheme "gopher"'];
    }

    #[DataProvider('badUris')]
    public function testRefusesAUriThatIsNotAbsoluteHttp(string|Uri $uri, string $inMessage): void
    {
        self::assertRefused(new Request('GET', $uri), $inMessage);
    }

    public function testAcceptsAnUpperCaseScheme(): void
    {
        $this->expectNotToPerformAssertions();

        RequestGuard::check(new Request('GET', new Uri('HTTPS://a.example/')));
    }

    /** @return iterable<string, array{string, string}> */
    public static function badHeaderValues(): iterable
    {
        yield 'CRLF' => ["a\r\nX-Injected: 1", 'CR, LF or NUL'];
        yield 'bare LF' => ["a\nb", 'CR, LF or NUL'];
        yield 'bare CR' => ["a\rb", 'CR, LF or NUL'];
        yield 'NUL' => ["a\0b", 'CR, LF or NUL'];
    }

    #[DataProvider('badHeaderValues')]
    public function testRefusesAHeaderValueThatWouldSplitTheRequest(string $value, string $inMessage): void
    {
        self::assertRefused(new HandRolledRequest(['X-Tag' => ['ok', $value]]), 'Header "X-Tag" has a ' . $inMessage);
    }

    /** @return iterable<string, array{string}> */
    public static function badHeaderNames(): iterable
    {
        yield 'a space' => ['X Tag'];
        yield 'a colon' => ['X-Tag:'];
        yield 'CRLF' => ["X-Tag\r\nX-Injected"];
        yield 'NUL' => ["X\0Tag"];
        yield 'non-ASCII' => ['X-Tág'];
    }

    #[DataProvider('badHeaderNames')]
    public function testRefusesAHeaderNameThatIsNotAToken(string $name): void
    {
        self::assertRefused(new HandRolledRequest([$name => ['v']]), 'Invalid header name ' . json_encode($name));
    }

    public function testTheRefusalCarriesTheRequest(): void
    {
        $request = new Request('BAD METHOD', 'https://a.example/');

        try {
            RequestGuard::check($request);
            self::fail('Expected a RequestException');
        } catch (RequestException $e) {
            self::assertSame($request, $e->getRequest());
        }
    }

    private static function assertRefused(RequestInterface $request, string $inMessage): void
    {
        try {
            RequestGuard::check($request);
        } catch (RequestException $e) {
            self::assertStringContainsString($inMessage, $e->getMessage());

            return;
        }
        self::fail('Expected a RequestException containing: ' . $inMessage);
    }
}
