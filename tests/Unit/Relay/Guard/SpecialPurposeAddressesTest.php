<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Guard;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Guard\SpecialPurposeAddresses;

/**
 * Every range of the IANA special-purpose registries the classifier knows, at both ends, and
 * the first public address on each side where there is one: a table off by one bit shows here.
 */
final class SpecialPurposeAddressesTest extends TestCase
{
    /** @return iterable<string, array{string, string}> address, what the refusal must name */
    public static function notPublic(): iterable
    {
        $ranges = [
            ['0.0.0.0', '0.255.255.255', '0.0.0.0/8'],
            ['10.0.0.0', '10.255.255.255', '10.0.0.0/8'],
            ['100.64.0.0', '100.127.255.255', '100.64.0.0/10'],
            ['127.0.0.0', '127.255.255.255', '127.0.0.0/8'],
            ['169.254.0.0', '169.254.255.255', '169.254.0.0/16'],
            ['172.16.0.0', '172.31.255.255', '172.16.0.0/12'],
            ['192.0.0.0', '192.0.0.255', '192.0.0.0/24'],
            ['192.0.2.0', '192.0.2.255', '192.0.2.0/24'],
            ['192.31.196.0', '192.31.196.255', '192.31.196.0/24'],
            ['192.52.193.0', '192.52.193.255', '192.52.193.0/24'],
            ['192.88.99.0', '192.88.99.255', '192.88.99.0/24'],
            ['192.168.0.0', '192.168.255.255', '192.168.0.0/16'],
            ['192.175.48.0', '192.175.48.255', '192.175.48.0/24'],
            ['198.18.0.0', '198.19.255.255', '198.18.0.0/15'],
            ['198.51.100.0', '198.51.100.255', '198.51.100.0/24'],
            ['203.0.113.0', '203.0.113.255', '203.0.113.0/24'],
            ['224.0.0.0', '239.255.255.255', '224.0.0.0/4'],
            ['240.0.0.0', '255.255.255.254', '240.0.0.0/4'],
            ['255.255.255.255', '255.255.255.255', '255.255.255.255/32'],
            ['::', '::', '::/128'],
            ['::1', '::1', '::1/128'],
            ['::2', '::ffff:ffff', '::/96'],
            ['::7f00:1', '::7f00:1', '::/96'],
            ['::ffff:0:0:0', '::ffff:0:ffff:ffff', '::ffff:0:0:0/96'],
            ['64:ff9b:1::', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff', '64:ff9b:1::/48'],
            ['100::', '100::ffff:ffff:ffff:ffff', '100::/64'],
            ['2001::', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff', '2001::/23'],
            ['2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db8::/32'],
            ['3fff::', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff', '3fff::/20'],
            ['5f00::', '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '5f00::/16'],
            ['fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'fc00::/7'],
            ['fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'fe80::/10'],
            ['fec0::', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'fec0::/10'],
            ['ff00::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'ff00::/8'],
            ['4000::', '5eff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'outside 2000::/3'],
            ['1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '400::', 'outside 2000::/3'],
        ];
        foreach ($ranges as [$first, $last, $named]) {
            yield "$named: $first" => [$first, $named];
            if ($last !== $first) {
                yield "$named: $last" => [$last, $named];
            }
        }
    }

    #[DataProvider('notPublic')]
    public function testEachSpecialPurposeRangeIsRefusedAtBothEnds(string $address, string $named): void
    {
        $why = SpecialPurposeAddresses::classify($address);

        self::assertNotNull($why, "$address must not be public");
        self::assertStringContainsString($named, $why);
        self::assertFalse(SpecialPurposeAddresses::isPublic($address));
    }

    /** @return iterable<string, array{string, string}> address, what the refusal must name */
    public static function carryingAPrivateIpv4(): iterable
    {
        yield 'IPv4-mapped loopback' => ['::ffff:127.0.0.1', '127.0.0.0/8'];
        yield 'IPv4-mapped metadata' => ['::ffff:169.254.169.254', '169.254.0.0/16'];
        yield 'NAT64 of a private address' => ['64:ff9b::10.0.0.1', '10.0.0.0/8'];
        yield 'NAT64 of loopback' => ['64:ff9b::7f00:1', '127.0.0.0/8'];
        yield '6to4 of a private address' => ['2002:a00:1::', '10.0.0.0/8'];
        yield '6to4 of loopback' => ['2002:7f00:1::1', '127.0.0.0/8'];
        yield '6to4 of metadata' => ['2002:a9fe:a9fe::', '169.254.0.0/16'];
        yield '6to4 of CGNAT' => ['2002:6440:1::', '100.64.0.0/10'];
    }

    #[DataProvider('carryingAPrivateIpv4')]
    public function testAnIpv6AddressCarryingAnIpv4IsJudgedByTheIpv4(string $address, string $named): void
    {
        $why = SpecialPurposeAddresses::classify($address);

        self::assertNotNull($why);
        self::assertStringContainsString($named, $why);
    }

    /** @return iterable<string, array{string}> */
    public static function public(): iterable
    {
        yield 'before 10/8' => ['9.255.255.255'];
        yield 'after 10/8' => ['11.0.0.0'];
        yield 'before CGNAT' => ['100.63.255.255'];
        yield 'after CGNAT' => ['100.128.0.0'];
        yield 'after 127/8' => ['128.0.0.0'];
        yield 'before 172.16/12' => ['172.15.255.255'];
        yield 'after 172.16/12' => ['172.32.0.0'];
        yield 'after 192.0.0/24' => ['192.0.1.0'];
        yield 'after 198.18/15' => ['198.20.0.0'];
        yield 'before multicast' => ['223.255.255.255'];
        yield 'Google DNS' => ['8.8.8.8'];
        yield 'IPv4-mapped public' => ['::ffff:8.8.8.8'];
        yield 'NAT64 of a public address' => ['64:ff9b::808:808'];
        yield '6to4 of a public address' => ['2002:808:808::1'];
        yield 'start of global unicast' => ['2000::'];
        yield 'after 2001::/23' => ['2001:200::'];
        yield 'before 2001:db8::/32' => ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff'];
        yield 'before 3fff::/20' => ['3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff'];
        yield 'after 3fff::/20' => ['3fff:1000::'];
        yield 'Cloudflare IPv6' => ['2606:4700:4700::1111'];
    }

    #[DataProvider('public')]
    public function testGloballyReachableAddressesArePublic(string $address): void
    {
        self::assertNull(SpecialPurposeAddresses::classify($address));
    }

    /** @return iterable<string, array{string}> */
    public static function notAnAddress(): iterable
    {
        yield 'a name' => ['example.com'];
        yield 'empty' => [''];
        yield 'decimal form' => ['2130706433'];
        yield 'octal form' => ['0177.0.0.1'];
        yield 'bracketed' => ['[::1]'];
        yield 'zone id' => ['fe80::1%eth0'];
    }

    #[DataProvider('notAnAddress')]
    public function testWhatIsNotAnAddressIsNeverPublic(string $text): void
    {
        self::assertStringContainsString('is not an IP address', (string) SpecialPurposeAddresses::classify($text));
    }
}
