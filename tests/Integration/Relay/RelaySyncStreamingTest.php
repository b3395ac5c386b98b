<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use Psr\Http\Client\ClientExceptionInterface;
use WarmHttp\Client;
use WarmHttp\Rig\RawOrigin;
use WarmHttp\Rig\Rig;

/**
 * Sync mode streams the destination's answer back: the head and the first bytes reach the
 * caller while the destination is still sending, a body of any size passes through a relay of
 * bounded memory, and a body cut short upstream reaches the caller cut short.
 */
final class RelaySyncStreamingTest extends TestCase
{
    private static ?RelayProcess $relay = null;

    private static ?RawOrigin $origin = null;

    public static function tearDownAfterClass(): void
    {
        self::$relay?->remove();
        self::$origin?->stop();
        self::$relay = self::$origin = null;
    }

    public function testTheHeadAndFirstBytesReachTheCallerWhileTheDestinationStillSends(): void
    {
        // The origin sends a head announcing 100,000 bytes and the first 1,000, then stalls.
        // (Started before the socket is opened: a child started later would inherit it.)
        $url = self::origin()->url('/stall-mid-body');
        $socket = self::open();
        fwrite($socket, \sprintf("GET %s HTTP/1.1\r\nX-WarmHttp-Mode: sync\r\n\r\n", $url));
        $received = self::readUntil($socket, static fn(string $in): bool => substr_count($in, 's') >= 1000);
        [$head, $body] = explode("\r\n\r\n", $received, 2);
        self::assertStringStartsWith('HTTP/1.1 200 ', $head);
        self::assertStringContainsStringIgnoringCase("\r\nContent-Length: 100000", $head);
        self::assertSame(str_repeat('s', 1000), $body);

        // The caller gives up: the relay stops the transfer and has nothing left in flight.
        fclose($socket);
        self::assertTrue(self::awaitGauge('warmhttp_relay_in_flight', 0.0), 'the abandoned sync transfer was stopped');
        self::assertSame('ok', (string) self::client()->sendRequest(self::client()->createRequest('GET', Rig::shared()->nginx()->url('plain', '/fast')))->getBody());
    }

    public function testABodyStillArrivingWithoutALengthIsChunked(): void
    {
        // /drip sends "first," at once and "second" 0.5 s later, with no Content-Length.
        $socket = self::open();
        fwrite($socket, \sprintf("GET %s HTTP/1.1\r\nX-WarmHttp-Mode: sync\r\n\r\n", Rig::shared()->nginx()->url('plain', '/drip')));
        $received = self::readUntil($socket, static fn(string $in): bool => str_ends_with($in, "0\r\n\r\n"));
        [$head, $body] = explode("\r\n\r\n", $received, 2);
        self::assertStringContainsStringIgnoringCase("\r\nTransfer-Encoding: chunked", $head);
        self::assertStringNotContainsStringIgnoringCase('Content-Length', $head);
        self::assertSame("6\r\nfirst,\r\n6\r\nsecond\r\n0\r\n\r\n", $body);
        fclose($socket);

        $response = self::client()->sendRequest(self::client()->createRequest('GET', Rig::shared()->nginx()->url('plain', '/drip')));
        self::assertSame('first,second', (string) $response->getBody());
    }

    public function testAnHttp10CallerGetsABodyEndedByClose(): void
    {
        $socket = self::open();
        fwrite($socket, \sprintf("GET %s HTTP/1.0\r\nX-WarmHttp-Mode: sync\r\n\r\n", Rig::shared()->nginx()->url('plain', '/drip')));
        $received = self::readUntil($socket, static fn(string $in): bool => false);
        [$head, $body] = explode("\r\n\r\n", $received, 2);
        self::assertStringContainsStringIgnoringCase("\r\nConnection: close", $head);
        self::assertStringNotContainsStringIgnoringCase('Transfer-Encoding', $head);
        self::assertSame('first,second', $body);
    }

    public function testALargeBodyPassesThroughWithBoundedRelayMemory(): void
    {
        $before = self::peakRssKib(self::relay()->pid());
        $client = self::client(['stream' => true]);
        $response = $client->sendRequest($client->createRequest('GET', Rig::shared()->nginx()->url('plain', '/bytes/1g')));
        self::assertSame('1073741824', $response->getHeaderLine('Content-Length'));
        $body = $response->getBody();
        $bytes = 0;
        $hash = hash_init('crc32b');
        while (!$body->eof()) {
            $chunk = $body->read(1 << 20);
            $bytes += \strlen($chunk);
            hash_update($hash, $chunk);
        }
        self::assertSame(1073741824, $bytes);
        $expected = hash_file('crc32b', Rig::shared()->nginx()->dir() . '/bytes/1g');
        self::assertSame($expected, hash_final($hash));
        $grown = self::peakRssKib(self::relay()->pid()) - $before;
        self::assertLessThan(64 * 1024, $grown, \sprintf('the relay held %d KiB more at its peak while passing 1 GiB on', $grown));
    }

    public function testHeadAndNoContentAnswersCarryNoBody(): void
    {
        $client = self::client();
        $head = $client->sendRequest($client->createRequest('HEAD', Rig::shared()->nginx()->url('plain', '/bytes/1m')));
        self::assertSame(200, $head->getStatusCode());
        self::assertSame('1048576', $head->getHeaderLine('Content-Length'));
        self::assertSame('', (string) $head->getBody());

        $socket = self::open();
        fwrite($socket, \sprintf("GET %s HTTP/1.1\r\nX-WarmHttp-Mode: sync\r\n\r\nGET %s HTTP/1.1\r\nX-WarmHttp-Mode: sync\r\n\r\n", Rig::shared()->nginx()->url('plain', '/status/204'), Rig::shared()->nginx()->url('plain', '/fast')));
        $received = self::readUntil($socket, static fn(string $in): bool => str_ends_with($in, "\r\n\r\nok"));
        self::assertStringStartsWith('HTTP/1.1 204 ', $received);
        self::assertSame(2, substr_count($received, 'HTTP/1.1 '), 'the 204 had no body and the next answer followed it');
        self::assertStringNotContainsStringIgnoringCase('Content-Length', explode("\r\n\r\n", $received, 2)[0]);
        fclose($socket);
    }

    public function testABodyCutShortUpstreamReachesTheCallerAsAnError(): void
    {
        $client = self::client();
        try {
            // The origin announces 100,000 bytes, sends 1,000 and resets the connection.
            $response = $client->sendRequest($client->createRequest('GET', self::origin()->url('/reset-mid-body')));
            // The relay may learn of the reset before it has sent the head: then it answers 502.
            self::assertSame(502, $response->getStatusCode());
            self::assertNotSame('', $response->getHeaderLine('X-WarmHttp-Error'));
        } catch (ClientExceptionInterface $e) {
            self::assertStringContainsString('/reset-mid-body', $e->getMessage());
        }
        self::assertSame('ok', (string) $client->sendRequest($client->createRequest('GET', Rig::shared()->nginx()->url('plain', '/fast')))->getBody());
    }

    private static function relay(): RelayProcess
    {
        return self::$relay ??= RelayProcess::start(['--allow-private-networks']);
    }

    private static function origin(): RawOrigin
    {
        return self::$origin ??= RawOrigin::start();
    }

    /** @param array<string, mixed> $options */
    private static function client(array $options = []): Client
    {
        return new Client(['relay' => self::relay()->address(), 'relay_sync' => true, 'timeout' => 60] + $options);
    }

    /** @return resource */
    private static function open()
    {
        $socket = stream_socket_client(self::relay()->address(), $errno, $errstr, 2);
        self::assertNotFalse($socket, (string) $errstr);
        stream_set_timeout($socket, 10);

        return $socket;
    }

    /**
     * Reads until $done says so, the peer closes, or 10 s pass without data.
     *
     * @param resource                $socket
     * @param \Closure(string): bool $done
     */
    private static function readUntil($socket, \Closure $done): string
    {
        $in = '';
        while (!$done($in)) {
            $chunk = fread($socket, 65536);
            if ($chunk === false || $chunk === '') {
                self::assertFalse(stream_get_meta_data($socket)['timed_out'], 'no more data within 10 s; got: ' . substr($in, 0, 300));

                break;
            }
            $in .= $chunk;
        }

        return $in;
    }

    private static function awaitGauge(string $name, float $value): bool
    {
        $deadline = microtime(true) + 10;
        do {
            $metrics = self::relay()->raw("GET /metrics HTTP/1.1\r\n\r\n");
            if (preg_match('/^' . preg_quote($name, '/') . ' (\S+)$/m', $metrics, $m) === 1 && (float) $m[1] === $value) {
                return true;
            }
            usleep(20_000);
        } while (microtime(true) < $deadline);

        return false;
    }

    private static function peakRssKib(int $pid): int
    {
        $status = (string) file_get_contents("/proc/$pid/status");

        return preg_match('/^VmHWM:\s+(\d+) kB/m', $status, $m) === 1 ? (int) $m[1] : 0;
    }
}
