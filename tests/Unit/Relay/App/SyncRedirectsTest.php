<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\App;

use Nyholm\Psr7\Request;
use Nyholm\Psr7\Response;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\App\SyncRedirects;

final class SyncRedirectsTest extends TestCase
{
    /** @return iterable<string, array{string, string, string}> base, Location, next URI */
    public static function locations(): iterable
    {
        yield 'absolute path' => ['https://a.example/x/y?q=1', '/z', 'https://a.example/z'];
        yield 'relative path' => ['https://a.example/x/y?q=1', 'z?w=2', 'https://a.example/x/z?w=2'];
        yield 'dot segments' => ['https://a.example/x/y/z', '../w/./v', 'https://a.example/x/w/v'];
        yield 'query only' => ['https://a.example/x/y?q=1', '?q=2', 'https://a.example/x/y?q=2'];
        yield 'absolute' => ['https://a.example/x', 'http://b.example:8080/p?q', 'http://b.example:8080/p?q'];
        yield 'scheme-relative' => ['https://a.example/x', '//b.example/p', 'https://b.example/p'];
        yield 'fragment dropped' => ['https://a.example/x', '/p#frag', 'https://a.example/p'];
    }

    #[DataProvider('locations')]
    public function testResolvesTheLocationAgainstTheDestination(string $base, string $location, string $expected): void
    {
        $next = SyncRedirects::next(new Request('GET', $base), new Response(302, ['Location' => $location]));

        self::assertNotNull($next);
        self::assertSame($expected, (string) $next->getUri());
    }

    public function testOnlyRedirectStatusesWithALocationAreFollowed(): void
    {
        $request = new Request('GET', 'https://a.example/');

        self::assertNull(SyncRedirects::next($request, new Response(200, ['Location' => '/x'])));
        self::assertNull(SyncRedirects::next($request, new Response(304, ['Location' => '/x'])));
        self::assertNull(SyncRedirects::next($request, new Response(302)));
    }

    /** @return iterable<string, array{string, int, string, string}> method, status, next method, next body */
    public static function methods(): iterable
    {
        yield 'POST after 302' => ['POST', 302, 'GET', ''];
        yield 'POST after 301' => ['POST', 301, 'GET', ''];
        yield 'PUT after 303' => ['PUT', 303, 'GET', ''];
        yield 'HEAD after 303' => ['HEAD', 303, 'HEAD', 'body'];
        yield 'POST after 307' => ['POST', 307, 'POST', 'body'];
        yield 'PUT after 308' => ['PUT', 308, 'PUT', 'body'];
        yield 'PUT after 302' => ['PUT', 302, 'PUT', 'body'];
    }

    #[DataProvider('methods')]
    public function testChangesTheMethodAsCurlDoes(string $method, int $status, string $nextMethod, string $nextBody): void
    {
        $request = new Request($method, 'https://a.example/', ['Content-Type' => 'text/plain'], 'body');

        $next = SyncRedirects::next($request, new Response($status, ['Location' => '/b']));

        self::assertNotNull($next);
        self::assertSame([$nextMethod, $nextBody], [$next->getMethod(), (string) $next->getBody()]);
        self::assertSame($nextBody !== '', $next->hasHeader('Content-Type'));
    }

    public function testCredentialsStayWithTheirOrigin(): void
    {
        $request = new Request('GET', 'https://a.example/', ['Authorization' => 'Bearer t', 'Cookie' => 'c=1', 'X-Other' => 'kept']);

        $same = SyncRedirects::next($request, new Response(302, ['Location' => 'https://a.example/b']));
        $other = SyncRedirects::next($request, new Response(302, ['Location' => 'https://b.example/']));
        $otherPort = SyncRedirects::next($request, new Response(302, ['Location' => 'https://a.example:8443/']));

        self::assertSame('Bearer t', $same?->getHeaderLine('Authorization'));
        self::assertFalse($other?->hasHeader('Authorization'));
        self::assertFalse($other->hasHeader('Cookie'));
        self::assertSame('kept', $other->getHeaderLine('X-Other'));
        self::assertFalse($otherPort?->hasHeader('Authorization'));
    }
}
