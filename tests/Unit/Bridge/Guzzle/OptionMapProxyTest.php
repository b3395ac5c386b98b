<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Bridge\Guzzle;

use GuzzleHttp\Psr7\Request;
use PHPUnit\Framework\TestCase;
use WarmHttp\Bridge\Guzzle\OptionMap;
use WarmHttp\Exception\RequestException;

/** Guzzle's `proxy` option, string and per-scheme array with `no`, as one Client `proxy`. */
final class OptionMapProxyTest extends TestCase
{
    public function testAStringIsTheProxyForEveryScheme(): void
    {
        self::assertSame(['proxy' => 'http://p:3128'], self::proxy('http://p:3128', 'https://a.example/'));
        self::assertSame(['proxy' => 'http://p:3128'], self::proxy('p:3128', 'http://a.example/'), 'libcurl\'s default scheme');
        self::assertSame(['proxy' => false], self::proxy('', 'http://a.example/'), 'an empty proxy turns proxies off in libcurl');
    }

    public function testAnArrayHasOneEntryPerScheme(): void
    {
        $proxy = ['http' => 'http://plain:1', 'https' => 'socks5h://tls:2'];

        self::assertSame(['proxy' => 'http://plain:1'], self::proxy($proxy, 'http://a.example/'));
        self::assertSame(['proxy' => 'socks5h://tls:2'], self::proxy($proxy, 'https://a.example/'));
        self::assertSame([], self::proxy(['http' => 'http://plain:1'], 'https://a.example/'), 'no entry: the environment\'s, as Guzzle');
    }

    public function testTheNoListMeansDirect(): void
    {
        $proxy = ['http' => 'http://p:1', 'no' => ['.internal', 'localhost']];

        self::assertSame(['proxy' => false], self::proxy($proxy, 'http://api.internal/'));
        self::assertSame(['proxy' => false], self::proxy($proxy, 'http://localhost:8080/'));
        self::assertSame(['proxy' => 'http://p:1'], self::proxy($proxy, 'http://example.com/'));
        self::assertSame(['proxy' => false], self::proxy(['http' => 'http://p:1', 'no' => ['*']], 'http://example.com/'), '* means no proxy at all');
        self::assertSame(['proxy' => false], self::proxy(['http' => 'http://p:1', 'no' => 'a.example, example.com'], 'http://example.com/'));
    }

    public function testAProxyOfAnotherTypeIsRefusedNamingTheOption(): void
    {
        $this->expectException(RequestException::class);
        $this->expectExceptionMessage('The Guzzle request option "proxy" must be a proxy URL');
        self::proxy(['http' => 5], 'http://example.com/');
    }

    /**
     * @param string|array<mixed> $proxy
     *
     * @return array<string, mixed>
     */
    private static function proxy(string|array $proxy, string $uri): array
    {
        return OptionMap::toWarmHttp(new Request('GET', $uri), ['proxy' => $proxy]);
    }
}
