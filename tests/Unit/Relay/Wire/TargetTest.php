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

        self::assertSame('https://API.example.com/hooks?x=1', $target->url, 'the fragment never goes on the wire');
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

    /** @return iterable<string, array{string, string}> */
    public static function refused(): iterable
    {
        yield 'another scheme' => ['ftp://example.com/x', 'Unsupported URI scheme "ftp"'];
        yield 'no scheme' => ['//example.com/x', 'Unsupported URI scheme ""'];
        yield 'no host' => ['http:///x', 'not a valid URI'];
        yield 'a port out of range' => ['http://example.com:99999/', 'not a valid URI'];
    }

    #[DataProvider('refused')]
    public function testWhatIsNotAnHttpTargetIsRefusedNamingWhy(string $target, string $message): void
    {
        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage($message);

        Target::parse($target);
    }
}
