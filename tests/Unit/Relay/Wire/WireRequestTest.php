<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Wire;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Wire\WireRequest;

final class WireRequestTest extends TestCase
{
    public function testFindsTheFirstHeaderOfANameInAnyCase(): void
    {
        $request = new WireRequest('POST', '/', [['X-A', 'one'], ['x-a', 'two']], '');

        self::assertSame('one', $request->header('x-A'));
        self::assertNull($request->header('X-B'));
    }

    /** @return iterable<string, array{list<array{string, string}>, string}> */
    public static function modes(): iterable
    {
        yield 'async unless asked' => [[], 'async'];
        yield 'sync' => [[['X-WarmHttp-Mode', 'sync']], 'sync'];
        yield 'normalised' => [[['x-warmhttp-mode', ' SYNC ']], 'sync'];
    }

    /** @param list<array{string, string}> $headers */
    #[DataProvider('modes')]
    public function testModeDefaultsToAsync(array $headers, string $mode): void
    {
        self::assertSame($mode, (new WireRequest('POST', 'https://a.example/', $headers, ''))->mode());
    }

    /** @return iterable<string, array{bool, ?string, bool}> */
    public static function connections(): iterable
    {
        yield 'HTTP/1.1 keeps alive by default' => [false, null, true];
        yield 'HTTP/1.1 with close' => [false, 'Close', false];
        yield 'HTTP/1.1 with keep-alive' => [false, 'keep-alive', true];
        yield 'HTTP/1.0 closes by default' => [true, null, false];
        yield 'HTTP/1.0 with keep-alive' => [true, 'Keep-Alive', true];
    }

    #[DataProvider('connections')]
    public function testKeepAliveFollowsTheVersionAndConnectionHeader(bool $http10, ?string $connection, bool $keepAlive): void
    {
        $headers = $connection === null ? [] : [['Connection', $connection]];

        self::assertSame($keepAlive, (new WireRequest('GET', '/', $headers, '', $http10))->keepAlive());
    }

    public function testTellsAbsoluteFormFromOriginForm(): void
    {
        self::assertTrue((new WireRequest('GET', 'HTTPS://a.example/', [], ''))->isAbsoluteForm());
        self::assertTrue((new WireRequest('GET', 'http://a.example/', [], ''))->isAbsoluteForm());
        self::assertFalse((new WireRequest('GET', '/metrics', [], ''))->isAbsoluteForm());
        self::assertFalse((new WireRequest('GET', 'ftp://a.example/', [], ''))->isAbsoluteForm());
    }
}
