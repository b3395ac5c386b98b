<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Guard;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Guard\DestinationGuard;
use WarmHttp\Relay\Guard\RefusedDestination;

/**
 * The address classification, and check() with IP literals only: check() resolves any other
 * host name through DNS, which a unit test must never do.
 */
final class DestinationGuardTest extends TestCase
{
    /** @return iterable<string, array{string}> */
    public static function refusedAddresses(): iterable
    {
        yield 'this network' => ['0.0.0.0'];
        yield 'loopback' => ['127.0.0.1'];
        yield 'loopback, end of range' => ['127.255.255.254'];
        yield 'private 10/8' => ['10.1.2.3'];
        yield 'private 172.16/12, start' => ['172.16.0.1'];
        yield 'private 172.16/12, end' => ['172.31.255.255'];
        yield 'private 192.168/16' => ['192.168.1.1'];
        yield 'link-local' => ['169.254.1.1'];
        yield 'cloud metadata' => ['169.254.169.254'];
        yield 'CGNAT, start' => ['100.64.0.1'];
        yield 'CGNAT, end' => ['100.127.255.255'];
        yield 'IETF protocol assignments' => ['192.0.0.170'];
        yield 'TEST-NET-1' => ['192.0.2.1'];
        yield 'benchmarking' => ['198.18.0.1'];
        yield 'multicast' => ['224.0.0.1'];
        yield 'reserved' => ['240.0.0.1'];
        yield 'broadcast' => ['255.255.255.255'];
        yield 'IPv6 unspecified' => ['::'];
        yield 'IPv6 loopback' => ['::1'];
        yield 'IPv6 loopback, long form' => ['0:0:0:0:0:0:0:1'];
        yield 'IPv4-mapped loopback' => ['::ffff:127.0.0.1'];
        yield 'IPv4-mapped loopback, hex' => ['::ffff:7f00:1'];
        yield 'IPv4-mapped metadata' => ['::ffff:169.254.169.254'];
        yield 'IPv4-mapped private' => ['::ffff:10.0.0.1'];
        yield 'IPv4-compatible loopback' => ['::127.0.0.1'];
        yield 'NAT64 of loopback' => ['64:ff9b::127.0.0.1'];
        yield 'discard-only' => ['100::1'];
        yield 'unique local' => ['fd12:3456::1'];
        yield 'AWS IPv6 metadata' => ['fd00:ec2::254'];
        yield 'IPv6 link-local' => ['fe80::1'];
        yield 'IPv6 multicast' => ['ff02::1'];
        yield 'IPv6 documentation' => ['2001:db8::1'];
        yield 'Teredo' => ['2001:0:4136:e378:8000:63bf:3fff:fdd2'];
        // inet_aton() forms of 127.0.0.1: not addresses to inet_pton(), so never public here;
        // check() would hand them to the resolver, which a unit test must not call.
        yield 'decimal form of 127.0.0.1' => ['2130706433'];
        yield 'octal form of 127.0.0.1' => ['0177.0.0.1'];
        yield 'hex form of 127.0.0.1' => ['0x7f.0.0.1'];
        yield 'short form of 127.0.0.1' => ['127.1'];
        yield 'not an address' => ['example.com'];
        yield 'empty' => [''];
    }

    #[DataProvider('refusedAddresses')]
    public function testRefusesNonPublicAddresses(string $address): void
    {
        self::assertFalse(DestinationGuard::isPublic($address));
    }

    /** @return iterable<string, array{string}> */
    public static function publicAddresses(): iterable
    {
        yield 'Google DNS' => ['8.8.8.8'];
        yield 'just past 172.16/12' => ['172.32.0.1'];
        yield 'just past CGNAT' => ['100.128.0.1'];
        yield 'just before 10/8' => ['9.255.255.255'];
        yield 'IPv4-mapped public' => ['::ffff:8.8.8.8'];
        yield 'Cloudflare IPv6' => ['2606:4700:4700::1111'];
    }

    #[DataProvider('publicAddresses')]
    public function testAllowsPublicAddresses(string $address): void
    {
        self::assertTrue(DestinationGuard::isPublic($address));
    }

    public function testCheckReturnsAPublicLiteralAsTheAddressToConnectTo(): void
    {
        $guard = new DestinationGuard(false, []);

        self::assertSame('8.8.8.8', $guard->check('8.8.8.8'));
        self::assertSame('2606:4700:4700::1111', $guard->check('[2606:4700:4700::1111]'));
    }

    public function testCheckRefusesAPrivateLiteralAndNamesTheWayOut(): void
    {
        $this->expectException(RefusedDestination::class);
        $this->expectExceptionMessage('Refused destination "169.254.169.254": it resolves to 169.254.169.254, and 169.254.169.254 is link-local (cloud metadata) (169.254.0.0/16)');
        $this->expectExceptionMessage('--allow-host=169.254.169.254 or --allow-private-networks');

        (new DestinationGuard(false, []))->check('169.254.169.254');
    }

    public function testCheckRefusesABracketedIpv6Loopback(): void
    {
        $this->expectException(RefusedDestination::class);

        (new DestinationGuard(false, []))->check('[::1]');
    }

    public function testCheckAllowsAPrivateLiteralWhenPrivateNetworksAreAllowed(): void
    {
        self::assertSame('10.0.0.5', (new DestinationGuard(true, []))->check('10.0.0.5'));
    }

    public function testCheckAllowsAnExplicitlyAllowedLiteral(): void
    {
        $guard = new DestinationGuard(false, ['127.0.0.1']);

        self::assertSame('127.0.0.1', $guard->check('127.0.0.1'));

        $this->expectException(RefusedDestination::class);
        $guard->check('127.0.0.2');
    }

    /** @return iterable<string, array{string}> */
    public static function gapsOnceJudgedPublic(): iterable
    {
        yield 'IPv4-compatible loopback' => ['[::7f00:1]'];
        yield 'NAT64 local-use' => ['[64:ff9b:1::a00:1]'];
        yield '6to4 of a private address' => ['[2002:a00:1::1]'];
        yield 'SIIT' => ['[::ffff:0:7f00:1]'];
        yield 'site-local' => ['[fec0::1]'];
        yield 'an IPv6 address as PHP\'s URI parsers give it, unbracketed' => ['fec0::1'];
    }

    #[DataProvider('gapsOnceJudgedPublic')]
    public function testCheckRefusesTheRangesPhpsFilterJudgedPublic(string $host): void
    {
        $this->expectException(RefusedDestination::class);

        (new DestinationGuard(false, []))->check($host);
    }

    /** @return iterable<string, array{string, string}> */
    public static function notNames(): iterable
    {
        yield 'hex IPv4' => ['0x7f.1', 'write it as 127.0.0.1'];
        yield 'final dot' => ['localhost.', 'write it as "localhost"'];
        yield 'percent-encoded' => ['%6cocalhost', 'write it as "localhost"'];
        yield 'zone id' => ['[fe80::1%25eth0]', 'zone id'];
    }

    /** No resolver is asked: each is refused by its spelling, before any lookup. */
    #[DataProvider('notNames')]
    public function testCheckRefusesWhatIsNoNameEvenWhenCalledWithoutTarget(string $host, string $message): void
    {
        $this->expectException(RefusedDestination::class);
        $this->expectExceptionMessage($message);

        (new DestinationGuard(true, []))->check($host);
    }

    public function testAnAllowedHostIsComparedInItsCanonicalSpelling(): void
    {
        $guard = new DestinationGuard(false, ['[::FFFF:7F00:1]', '127.0.0.1']);

        self::assertSame('::ffff:127.0.0.1', $guard->check('[::ffff:127.0.0.1]'));
        self::assertSame('127.0.0.1', $guard->check('127.0.0.1'));
    }

    public function testAnAllowedHostThatIsNoHostFailsAtStart(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage('--allow-host=0x7f.1: ');

        new DestinationGuard(false, ['0x7f.1']);
    }
}
