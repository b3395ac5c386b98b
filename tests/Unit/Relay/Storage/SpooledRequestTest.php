<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Storage;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Storage\SpooledRequest;

final class SpooledRequestTest extends TestCase
{
    /** @return iterable<string, array{string, string}> */
    public static function origins(): iterable
    {
        yield 'https default port' => ['https://api.example.com/x', 'https://api.example.com:443'];
        yield 'http default port' => ['http://api.example.com/x', 'http://api.example.com:80'];
        yield 'explicit port' => ['https://api.example.com:8443/x', 'https://api.example.com:8443'];
        yield 'case folded' => ['HTTPS://API.Example.COM/X', 'https://api.example.com:443'];
        yield 'user info ignored' => ['https://user:pw@api.example.com/', 'https://api.example.com:443'];
        yield 'IPv6 literal' => ['http://[2001:db8::1]:8080/', 'http://[2001:db8::1]:8080'];
    }

    #[DataProvider('origins')]
    public function testOriginIsSchemeHostAndPort(string $uri, string $origin): void
    {
        self::assertSame($origin, (new SpooledRequest(0, 'GET', $uri, [], '', 'k', 0, 0.0))->origin());
    }

    public function testWithIdChangesOnlyTheId(): void
    {
        $request = new SpooledRequest(0, 'PUT', 'https://a.example/', [['A', 'b']], 'body', 'key', 3, 12.5);

        $stored = $request->withId(42);

        self::assertSame(42, $stored->id);
        self::assertSame(0, $request->id);
        self::assertEquals(new SpooledRequest(42, 'PUT', 'https://a.example/', [['A', 'b']], 'body', 'key', 3, 12.5), $stored);
    }
}
