<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\App;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Exception\InvalidOptionException;
use WarmHttp\Relay\App\RelayAddress;

final class RelayAddressTest extends TestCase
{
    public function testParsesAUnixSocketPath(): void
    {
        $address = RelayAddress::parse('unix:///run/warmhttp/relay.sock');

        self::assertSame('/run/warmhttp/relay.sock', $address->socketPath);
        self::assertNull($address->host);
        self::assertNull($address->port);
        self::assertSame('unix:///run/warmhttp/relay.sock', $address->streamAddress());
        self::assertSame('http://relay/', $address->curlUrl());
    }

    /** @return iterable<string, array{string, string, int}> */
    public static function loopbackAddresses(): iterable
    {
        yield '127.0.0.1' => ['tcp://127.0.0.1:8787', '127.0.0.1', 8787];
        yield 'elsewhere in 127/8' => ['tcp://127.1.2.3:1', '127.1.2.3', 1];
        yield 'IPv6 loopback' => ['tcp://[::1]:65535', '[::1]', 65535];
        yield 'localhost' => ['tcp://localhost:80', 'localhost', 80];
    }

    #[DataProvider('loopbackAddresses')]
    public function testParsesALoopbackTcpAddress(string $given, string $host, int $port): void
    {
        $address = RelayAddress::parse($given);

        self::assertNull($address->socketPath);
        self::assertSame($host, $address->host);
        self::assertSame($port, $address->port);
        self::assertSame($given, $address->streamAddress());
        self::assertSame(\sprintf('http://%s:%d/', $host, $port), $address->curlUrl());
    }

    /** @return iterable<string, array{string, string}> */
    public static function refusedAddresses(): iterable
    {
        yield 'relative socket path' => ['unix://relay.sock', 'absolute socket path'];
        yield 'empty socket path' => ['unix://', 'absolute socket path'];
        yield 'a public address' => ['tcp://10.0.0.1:8787', 'loopback only'];
        yield 'all interfaces' => ['tcp://0.0.0.0:8787', 'loopback only'];
        yield 'no port' => ['tcp://127.0.0.1', 'loopback only'];
        yield 'six-digit port' => ['tcp://127.0.0.1:123456', 'loopback only'];
        yield 'http scheme' => ['http://127.0.0.1:8787', 'loopback only'];
        yield 'a bare path' => ['/run/warmhttp/relay.sock', 'loopback only'];
        yield 'trailing slash' => ['tcp://127.0.0.1:8787/', 'loopback only'];
        yield 'localhost look-alike' => ['tcp://localhost.evil.example:80', 'loopback only'];
    }

    #[DataProvider('refusedAddresses')]
    public function testRefusesAnythingButAnAbsoluteSocketOrLoopback(string $given, string $inMessage): void
    {
        $this->expectException(InvalidOptionException::class);
        $this->expectExceptionMessage('Option "relay": "' . $given . '"');
        $this->expectExceptionMessage($inMessage);

        RelayAddress::parse($given);
    }
}
