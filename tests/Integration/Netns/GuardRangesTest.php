<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Netns;

use PHPUnit\Framework\Attributes\DataProvider;
use WarmHttp\Client;
use WarmHttp\Exception\RequestException;
use WarmHttp\Tests\Integration\Relay\MemoryLogger;
use WarmHttp\Tests\Integration\Relay\RelayProcess;

/**
 * Issue 13, item 3, and the unsafe destinations that RelayGuardTest once aimed at outside any
 * namespace: every non-global range of the IANA registries, the IPv6 forms that carry a
 * private IPv4 address, and the host spellings that are no name at all (once spooled and
 * retried for 24 h). A real relay without --allow-private-networks refuses each at the door,
 * async and sync, with no connection to the recording origin on loopback.
 */
final class GuardRangesTest extends LoopbackOnlyTestCase
{
    private static ?RelayProcess $relay = null;

    public static function tearDownAfterClass(): void
    {
        self::$relay?->remove();
        self::$relay = null;
    }

    /** @return iterable<string, array{string}> hosts; the origin's port is added */
    public static function refusedAddresses(): iterable
    {
        yield 'loopback' => ['127.0.0.1'];
        yield 'loopback, end of range' => ['127.255.255.254'];
        yield 'localhost' => ['localhost'];
        yield 'this network' => ['0.0.0.0'];
        yield 'private' => ['10.1.2.3'];
        yield 'CGNAT' => ['100.64.0.1'];
        yield 'link-local metadata' => ['169.254.169.254'];
        yield 'TEST-NET-1' => ['192.0.2.1'];
        yield 'benchmarking' => ['198.18.0.1'];
        yield 'multicast' => ['224.0.0.1'];
        yield 'limited broadcast' => ['255.255.255.255'];
        yield 'IPv6 metadata' => ['[fd00:ec2::254]'];
        yield 'IPv6 loopback' => ['[::1]'];
        yield 'IPv4-mapped loopback' => ['[::ffff:127.0.0.1]'];
        yield 'IPv4-compatible loopback' => ['[::7f00:1]'];
        yield 'SIIT IPv4-translated' => ['[::ffff:0:a00:1]'];
        yield 'NAT64 of loopback' => ['[64:ff9b::7f00:1]'];
        yield 'NAT64 local-use' => ['[64:ff9b:1::a00:1]'];
        yield '6to4 of a private address' => ['[2002:a00:1::1]'];
        yield '6to4 of loopback' => ['[2002:7f00:1::1]'];
        yield 'Teredo' => ['[2001::1]'];
        yield 'IPv6 documentation' => ['[2001:db8::1]'];
        yield 'site-local' => ['[fec0::1]'];
        yield 'IPv6 link-local' => ['[fe80::1]'];
        yield 'IPv6 multicast' => ['[ff02::1]'];
        yield 'unallocated IPv6' => ['[4000::1]'];
    }

    #[DataProvider('refusedAddresses')]
    public function testANonGlobalAddressIsRefusedWith403AndNoConnection(string $host): void
    {
        $origin = GuardOrigin::start();
        $url = "http://$host:{$origin->port}/x";
        [$async, $sync] = self::sendBoth($url);

        self::assertSame(0, $origin->connections(0.3), "no connection for $url; the relay answered:\n$async\n$sync");
        self::assertStringStartsWith('HTTP/1.1 403 ', $async);
        self::assertStringStartsWith('HTTP/1.1 403 ', $sync);
        self::assertStringContainsString('--allow-private-networks', $async);
    }

    /** @return iterable<string, array{string, string}> host, what the refusal must name */
    public static function notNames(): iterable
    {
        yield 'hex and short IPv4' => ['0x7f.1', 'write it as 127.0.0.1'];
        yield 'hex IPv4' => ['0x7f000001', 'write it as 127.0.0.1'];
        yield 'decimal IPv4' => ['2130706433', 'write it as 127.0.0.1'];
        yield 'octal IPv4' => ['0177.0.0.1', 'write it as 127.0.0.1'];
        yield 'short IPv4' => ['127.1', 'write it as 127.0.0.1'];
        yield 'padded IPv4' => ['127.000.000.001', 'write it as 127.0.0.1'];
        yield 'IPv4 with a final dot' => ['127.0.0.1.', 'write it as "127.0.0.1"'];
        yield 'localhost with a final dot' => ['localhost.', 'write it as "localhost"'];
        yield 'five numbers' => ['127.0.0.0.1', 'not an IPv4 address in dotted-decimal form'];
        yield 'a zone id' => ['[fe80::1%25eth0]', 'zone id'];
        yield 'a zone id on loopback' => ['[::1%25lo]', 'zone id'];
        yield 'an underscore' => ['evil_host.example', 'not a host name'];
        yield 'an empty label' => ['evil..example', 'not a host name'];
    }

    #[DataProvider('notNames')]
    public function testAHostThatIsNoNameIsRefusedWith400NamingTheFormToWrite(string $host, string $named): void
    {
        $origin = GuardOrigin::start();
        $url = "http://$host:{$origin->port}/x";
        [$async, $sync] = self::sendBoth($url);

        self::assertSame(0, $origin->connections(0.3), "no connection for $url; the relay answered:\n$async\n$sync");
        self::assertStringStartsWith('HTTP/1.1 400 ', $async, 'refused at the door, not spooled and retried for 24 h');
        self::assertStringStartsWith('HTTP/1.1 400 ', $sync);
        self::assertStringContainsString($named, $async);
    }

    public function testAValidNameThatDoesNotResolveIsStillSpooledForRetry(): void
    {
        $answer = self::relay()->raw("POST http://no-such-host.example/x HTTP/1.1\r\nContent-Length: 0\r\n\r\n");

        self::assertStringStartsWith('HTTP/1.1 202 ', $answer, 'DNS may recover: delivery retries it');
    }

    public function testTheClientSeesTheRefusal(): void
    {
        $client = new Client(['relay' => self::relay()->address(), 'logger' => new MemoryLogger()]);

        $this->expectException(RequestException::class);
        $this->expectExceptionMessage('refused');
        $client->dispatch($client->createRequest('POST', 'http://[2002:a9fe:a9fe::1]/latest/meta-data/'));
    }

    /** @return array{string, string} the async and the sync answer */
    private static function sendBoth(string $url): array
    {
        $relay = self::relay();

        return [
            $relay->raw("POST $url HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi"),
            $relay->raw("GET $url HTTP/1.1\r\nX-WarmHttp-Mode: sync\r\n\r\n"),
        ];
    }

    /** --guard-sync: the sync requests here ask for no guard, the operator imposes it. */
    private static function relay(): RelayProcess
    {
        return self::$relay ??= RelayProcess::start(['--timeout=2', '--guard-sync']);
    }
}
