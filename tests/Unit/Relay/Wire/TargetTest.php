<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Wire;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Wire\Target;

final class TargetTest extends TestCase
{
    public function testAnAbsoluteTargetGivesUrlHostOriginAndPort(): void
    {
        $target = Target::parse('https://API.example.com/hooks?x=1#frag');

        self::assertSame('https://api.example.com/hooks?x=1', $target->url, 'the fragment never goes on the wire; curl gets the host the guard checks');
        self::assertSame('api.example.com', $target->host, 'host names are case-insensitive: one spelling for the guard and the pin');
        self::assertSame('https', $target->scheme);
        self::assertSame(443, $target->port);
        self::assertFalse($target->isIpLiteral());
    }

    public function testAnExplicitPortAndAnIpLiteral(): void
    {
        $v4 = Target::parse('http://127.0.0.1:8080/');
        $v6 = Target::parse('http://[::1]/');

        self::assertSame(8080, $v4->port);
        self::assertTrue($v4->isIpLiteral());
        self::assertSame(80, $v6->port);
        self::assertTrue($v6->isIpLiteral());
    }

    public function testTheUrlIsRebuiltFromTheCheckedParts(): void
    {
        $idn = Target::parse('http://ⓔⓥⓘⓛ.Example:8080/p?q=1');
        $mixed = Target::parse('HTTPS://user:p%40ss@Example.COM:/x');

        self::assertSame('http://evil.example:8080/p?q=1', $idn->url, 'curl is given the ASCII name the guard checked, never one it maps itself');
        self::assertSame('evil.example', $idn->host);
        self::assertSame('https://user:p%40ss@example.com/x', $mixed->url);
        self::assertSame(443, $mixed->port, 'an empty port is the default one');
    }

    public function testAnIpv6TargetIsBracketedAndCanonical(): void
    {
        $target = Target::parse('http://[0:0:0:0:0:FFFF:7F00:1]:81/');

        self::assertSame('[::ffff:127.0.0.1]', $target->host);
        self::assertSame('http://[::ffff:127.0.0.1]:81/', $target->url);
        self::assertTrue($target->isIpLiteral());
    }

    /** @return iterable<string, array{string, string}> */
    public static function refused(): iterable
    {
        yield 'another scheme' => ['ftp://example.com/x', 'Unsupported URI scheme "ftp"'];
        yield 'no scheme' => ['//example.com/x', 'is not a valid absolute URI'];
        yield 'a relative reference' => ['/x', 'is not a valid absolute URI'];
        yield 'no host' => ['http:///x', 'names no host'];
        yield 'a port out of range' => ['http://example.com:99999/', 'is not a number from 1 to 65535'];
        yield 'port zero' => ['http://example.com:0/', 'is not a number from 1 to 65535'];
        yield 'two ports' => ['http://example.com:1:2/', 'is not a number from 1 to 65535'];
        yield 'a space' => ['http://example.com/a b', 'contains a space or control character'];
        yield 'a control character' => ["http://example.com/a\x01", 'contains a space or control character'];
        yield 'two @ in the authority' => ['http://a@b@example.com/', 'must be percent-encoded'];
        yield 'a backslash before @' => ['http://evil.example\\@good.example/', 'must be percent-encoded'];
        yield 'junk after an IPv6 address' => ['http://[::1]x/', 'other than ":port"'];
        yield 'percent-encoded host' => ['http://%65vil.example/', 'write it as "evil.example"'];
        yield 'a final dot' => ['http://localhost./', 'write it as "localhost"'];
        yield 'a decimal IPv4' => ['http://2130706433/', 'write it as 127.0.0.1'];
        yield 'a zone id' => ['http://[fe80::1%25eth0]/', 'carries a zone id'];
    }

    #[DataProvider('refused')]
    public function testWhatIsNotAnHttpTargetIsRefusedNamingWhy(string $target, string $message): void
    {
        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage($message);

        Target::parse($target);
    }
}
