<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Internal;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\TransferSpec;

final class TransferSpecTest extends TestCase
{
    /** @return iterable<string, array{string, string}> */
    public static function origins(): iterable
    {
        yield 'https default port' => ['https://API.Example.com/x?y#z', 'https://api.example.com:443'];
        yield 'http default port' => ['http://example.com', 'http://example.com:80'];
        yield 'explicit port' => ['https://example.com:8443/', 'https://example.com:8443'];
        yield 'IPv6 literal' => ['http://[::1]:8080/a', 'http://[::1]:8080'];
    }

    #[DataProvider('origins')]
    public function testTheOriginKeyNamesSchemeHostAndPortWithDefaults(string $url, string $origin): void
    {
        self::assertSame($origin, TransferSpec::of('GET', $url, true, [])->origin);
    }

    public function testTheHostIsLowerCase(): void
    {
        self::assertSame('api.example.com', TransferSpec::of('GET', 'https://API.example.com/x', true, [])->host);
        self::assertSame('[::1]', TransferSpec::of('GET', 'http://[::1]:8080/', true, [])->host);
    }

    /** @return iterable<string, array{string, bool, bool}> */
    public static function methods(): iterable
    {
        foreach (['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE'] as $method) {
            yield $method => [$method, false, true];
        }
        yield 'POST' => ['POST', false, false];
        yield 'PATCH' => ['PATCH', false, false];
        yield 'POST with an Idempotency-Key' => ['POST', true, true];
        yield 'lower-case get is another method' => ['get', false, false];
    }

    #[DataProvider('methods')]
    public function testOnlyIdempotentMethodsOrAKeyMayBeSentTwice(string $method, bool $key, bool $safe): void
    {
        self::assertSame($safe, TransferSpec::isSafeToResend($method, $key));
    }

    public function testFailureMessagesStartWithMethodAndUrl(): void
    {
        $spec = TransferSpec::of('POST', 'https://api.example.com/hooks', false, []);

        self::assertSame('POST https://api.example.com/hooks failed: the connection was refused.', $spec->describe('the connection was refused'));
    }
}
