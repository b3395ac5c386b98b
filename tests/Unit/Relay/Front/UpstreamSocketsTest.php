<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Front;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Front\UpstreamSockets;

/**
 * Curl's sockets found and waited on, with a real curl multi handle and a loopback server in
 * this process: select wakes when the answer comes, a dup never keeps a socket open that curl
 * or the front closed, and a transfer that cannot be waited on is polled.
 */
final class UpstreamSocketsTest extends TestCase
{
    /** @var resource */
    private $server;

    private \CurlMultiHandle $multi;

    /** @var list<resource> */
    private array $accepted = [];

    protected function setUp(): void
    {
        if (!\function_exists('socket_import_stream') || !is_dir('/proc/self/fd')) {
            self::markTestSkipped('needs ext-sockets and /proc');
        }
        $server = stream_socket_server('tcp://127.0.0.1:0');
        self::assertNotFalse($server);
        $this->server = $server;
        $this->multi = curl_multi_init();
    }

    protected function tearDown(): void
    {
        array_map(fclose(...), $this->accepted);
        fclose($this->server);
        curl_multi_close($this->multi);
    }

    public function testWaitsOnTheTransfersSocketUntilItsAnswerArrives(): void
    {
        $sockets = new UpstreamSockets();
        $handle = $this->startGet();
        $peer = $this->acceptRequest($handle);

        $watched = $sockets->watch([$handle]);
        self::assertNotNull($watched);
        self::assertCount(1, $watched);
        self::assertTrue($sockets->isWatched($watched[0]));
        self::assertSame(0, self::select($watched, 0.05), 'nothing arrived yet');

        fwrite($peer, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        self::assertSame(1, self::select($watched, 2.0));
        $this->runUntilDone($handle);
        self::assertSame('ok', curl_multi_getcontent($handle));
        self::assertSame([], $sockets->watch([]), 'nothing in flight: nothing to wait on');
    }

    public function testAClosedConnectionsDupIsClosedSoThePeerSeesItsEnd(): void
    {
        $sockets = new UpstreamSockets();
        $handle = $this->startGet();
        $peer = $this->acceptRequest($handle);
        self::assertNotNull($sockets->watch([$handle]));
        self::assertSame(1, $sockets->count());

        // Connection: close: curl closes its descriptor once the answer is in.
        fwrite($peer, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
        $this->runUntilDone($handle);
        $sockets->sweep();

        self::assertSame(0, $sockets->count());
        stream_set_blocking($peer, false);
        $read = [$peer];
        $none = null;
        self::assertSame(1, stream_select($read, $none, $none, 2));
        self::assertSame('', fread($peer, 100));
        self::assertTrue(feof($peer), 'the peer saw the connection end: no dup held it open');
    }

    public function testASocketThatIsNotCurlsIsNotHeldOpen(): void
    {
        $sockets = new UpstreamSockets();
        $client = stream_socket_client('tcp://' . stream_socket_get_name($this->server, false));
        self::assertNotFalse($client);
        $other = stream_socket_accept($this->server, 2);
        self::assertNotFalse($other);
        $handle = $this->startGet();
        $this->acceptRequest($handle);

        self::assertNotNull($sockets->watch([$handle]), 'the scan looked at every socket of the process');
        fclose($other);

        $read = [$client];
        $none = null;
        self::assertSame(1, stream_select($read, $none, $none, 2));
        self::assertSame('', fread($client, 100), 'closing a socket the scan looked at ends it for its peer');
        fclose($client);
    }

    public function testABodyStillGoingOutIsPolled(): void
    {
        $sockets = new UpstreamSockets();
        $handle = $this->handle('/upload');
        curl_setopt($handle, \CURLOPT_POSTFIELDS, str_repeat('x', 16 * 1048576));
        curl_multi_add_handle($this->multi, $handle);
        // The server never reads: curl fills the socket's buffers and waits to write.
        $peer = null;
        for ($i = 0; $i < 50 && curl_getinfo($handle, \CURLINFO_SIZE_UPLOAD_T) === 0; ++$i) {
            curl_multi_exec($this->multi, $running);
            $peer ??= @stream_socket_accept($this->server, 0.01) ?: null;
        }
        self::assertNotNull($peer);
        $this->accepted[] = $peer;
        curl_multi_exec($this->multi, $running);

        self::assertNull($sockets->watch([$handle]));
        curl_multi_remove_handle($this->multi, $handle);
    }

    public function testNearFdSetsizeNoDupIsMadeAndTheTransferIsPolled(): void
    {
        $files = [];
        while (\count(scandir('/proc/self/fd') ?: []) - 2 < 1000) {
            $file = @fopen('/dev/null', 'r');
            if ($file === false) {
                array_map(fclose(...), $files);
                self::markTestSkipped('needs 1000 descriptors (ulimit -n)');
            }
            $files[] = $file;
        }
        $sockets = new UpstreamSockets();
        $handle = $this->startGet();
        $this->acceptRequest($handle);

        self::assertNull($sockets->watch([$handle]), 'a dup could get a descriptor select cannot wait on');
        self::assertSame(0, $sockets->count());
        array_map(fclose(...), $files);
        curl_multi_remove_handle($this->multi, $handle);
    }

    public function testWithoutTheMeansToFindSocketsEveryTransferIsPolled(): void
    {
        $sockets = new UpstreamSockets(usable: false);
        $handle = $this->startGet();
        $this->acceptRequest($handle);

        self::assertNull($sockets->watch([$handle]));
        self::assertSame(0, $sockets->count());
        curl_multi_remove_handle($this->multi, $handle);
    }

    private function handle(string $path): \CurlHandle
    {
        $handle = curl_init('http://' . stream_socket_get_name($this->server, false) . $path);
        curl_setopt_array($handle, [\CURLOPT_RETURNTRANSFER => true, \CURLOPT_TIMEOUT => 5]);

        return $handle;
    }

    private function startGet(): \CurlHandle
    {
        $handle = $this->handle('/');
        curl_multi_add_handle($this->multi, $handle);
        curl_multi_exec($this->multi, $running);

        return $handle;
    }

    /**
     * Accepts curl's connection and reads its request head, so the transfer is in flight.
     *
     * @return resource
     */
    private function acceptRequest(\CurlHandle $handle)
    {
        $peer = stream_socket_accept($this->server, 2);
        self::assertNotFalse($peer);
        $this->accepted[] = $peer;
        stream_set_blocking($peer, false);
        $head = '';
        $deadline = microtime(true) + 2;
        while (!str_contains($head, "\r\n\r\n") && microtime(true) < $deadline) {
            curl_multi_exec($this->multi, $running);
            $head .= (string) fread($peer, 8192);
            usleep(1000);
        }
        self::assertStringContainsString("\r\n\r\n", $head);
        self::assertGreaterThan(0, curl_getinfo($handle, \CURLINFO_LOCAL_PORT));

        return $peer;
    }

    private function runUntilDone(\CurlHandle $handle): void
    {
        $deadline = microtime(true) + 2;
        do {
            curl_multi_exec($this->multi, $running);
            if ($running > 0) {
                curl_multi_select($this->multi, 0.01);
            }
        } while ($running > 0 && microtime(true) < $deadline);
        self::assertSame(0, $running);
        curl_multi_remove_handle($this->multi, $handle);
    }

    /** @param list<resource> $streams */
    private static function select(array $streams, float $seconds): int|false
    {
        $none = null;

        return stream_select($streams, $none, $none, 0, (int) ($seconds * 1e6));
    }
}
