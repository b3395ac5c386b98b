<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Client;
use WarmHttp\Exception\RequestException;
use WarmHttp\Relay\App\DeferredSends;
use WarmHttp\Rig\Rig;

/**
 * Bad input, unsafe destinations, size caps and a full disk: each gets its error, and the
 * daemon keeps serving.
 */
final class RelayGuardTest extends TestCase
{
    private static ?RelayProcess $relay = null;

    public static function tearDownAfterClass(): void
    {
        self::$relay?->remove();
        self::$relay = null;
    }

    /** @return iterable<string, array{string, int}> */
    public static function malformed(): iterable
    {
        yield 'garbage' => ["GARBAGE\r\n\r\n", 400];
        yield 'no version' => ["POST http://127.0.0.1/x\r\n\r\n", 400];
        yield 'bad header' => ["POST http://127.0.0.1/x HTTP/1.1\r\nNo colon here\r\n\r\n", 400];
        yield 'smuggling shape' => ["POST http://127.0.0.1/x HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc", 400];
        yield 'two lengths' => ["POST http://127.0.0.1/x HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", 400];
        yield 'bad chunk' => ["POST http://127.0.0.1/x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400];
        yield 'CONNECT' => ["CONNECT 127.0.0.1:443 HTTP/1.1\r\n\r\n", 405];
        yield 'origin form' => ["POST /x HTTP/1.1\r\nHost: a\r\n\r\n", 400];
        yield 'ftp' => ["POST ftp://127.0.0.1/x HTTP/1.1\r\n\r\n", 400];
        yield 'unknown mode' => ["POST http://127.0.0.1/x HTTP/1.1\r\nX-WarmHttp-Mode: later\r\nContent-Length: 0\r\n\r\n", 400];
        // The destination is checked first (a refused one gets 403 whatever its size): this
        // one is allowed by name (relay()), so the size caps answer.
        yield 'too large' => ["POST http://127.0.0.2:1/x HTTP/1.1\r\nContent-Length: 5000\r\n\r\n", 413];
        yield 'head too large' => ['POST http://127.0.0.2:1/x HTTP/1.1' . "\r\nX-A: " . str_repeat('a', 70000), 431];
    }

    #[DataProvider('malformed')]
    public function testMalformedInputGetsItsErrorAndTheDaemonKeepsServing(string $bytes, int $status): void
    {
        $relay = self::relay();
        $answer = $relay->raw($bytes);
        self::assertStringStartsWith("HTTP/1.1 $status ", $answer);
        self::assertStringContainsString('X-WarmHttp-Error: ', $answer);

        self::assertStringStartsWith('HTTP/1.1 200 ', $relay->raw("GET /healthz HTTP/1.1\r\n\r\n"), 'still serving');
    }

    /**
     * Loopback only: a guard that failed open would reach port 1 of this machine. Every other
     * unsafe destination (private, metadata, CGNAT, multicast, the IPv6 forms) is attacked in
     * tests/Integration/Netns/GuardRangesTest, where nothing but loopback can be reached.
     *
     * @return iterable<string, array{string}>
     */
    public static function refused(): iterable
    {
        yield 'loopback' => ['http://127.0.0.1:1/x'];
        yield 'localhost name' => ['http://localhost:1/x'];
        yield 'IPv6 loopback' => ['http://[::1]:1/x'];
        yield 'IPv4-mapped loopback' => ['http://[::ffff:127.0.0.1]:1/x'];
    }

    #[DataProvider('refused')]
    public function testUnsafeDestinationsAreRefusedWithoutAllowPrivateNetworks(string $url): void
    {
        $relay = self::relay();
        $answer = $relay->raw("POST $url HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
        self::assertStringStartsWith('HTTP/1.1 403 ', $answer);
        self::assertStringContainsString('--allow-private-networks', $answer);
        $sync = $relay->raw("GET $url HTTP/1.1\r\nX-WarmHttp-Mode: sync\r\nX-WarmHttp-Guard: on\r\n\r\n");
        self::assertStringStartsWith('HTTP/1.1 403 ', $sync);

        $client = new Client(['relay' => $relay->address(), 'logger' => new MemoryLogger()]);
        $this->expectException(RequestException::class);
        $this->expectExceptionMessage('refused');
        $client->dispatch($client->createRequest('POST', $url));
    }

    public function testTheAllowlistOpensOneHost(): void
    {
        $nginx = Rig::shared()->nginx();
        $relay = RelayProcess::start(['--allow-host=localhost']);
        $ok = $relay->raw(\sprintf("POST http://localhost:%d/echo-body?allow=1 HTTP/1.1\r\nContent-Length: 0\r\n\r\n", $nginx->plainPort()));
        self::assertStringStartsWith('HTTP/1.1 202 ', $ok);
        $refused = $relay->raw(\sprintf("POST http://127.0.0.1:%d/echo-body HTTP/1.1\r\nContent-Length: 0\r\n\r\n", $nginx->plainPort()));
        self::assertStringStartsWith('HTTP/1.1 403 ', $refused);
        self::assertSame(1, $nginx->awaitRequests(1, '/echo-body?allow=1', 10.0));
        $relay->remove();
    }

    /**
     * The pin (CURLOPT_CONNECT_TO) changes where curl connects, not whom it talks to: TLS sends
     * the URL's host as SNI and verifies the certificate against it, over HTTP/2 and 1.1, in
     * sync mode and for deliveries.
     */
    public function testTlsThroughThePinVerifiesTheNameInTheUrl(): void
    {
        $rig = Rig::shared();
        $relay = RelayProcess::start(['--allow-host=localhost', '--cafile=' . $rig->caFile()]);
        try {
            foreach (['h2' => $rig->nginx()->h2Port(), 'h1' => $rig->nginx()->h1TlsPort()] as $listener => $port) {
                $sync = $relay->raw("GET https://localhost:$port/fast?pin=$listener HTTP/1.1\r\nX-WarmHttp-Mode: sync\r\nX-WarmHttp-Guard: on\r\n\r\n");
                self::assertStringStartsWith('HTTP/1.1 200 ', $sync, $listener);
                $async = $relay->raw("POST https://localhost:$port/echo-body?pin=$listener HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
                self::assertStringStartsWith('HTTP/1.1 202 ', $async, $listener);
                self::assertSame(1, $rig->nginx()->awaitRequests(1, "/echo-body?pin=$listener", 10.0), $listener);
            }
        } finally {
            $relay->remove();
        }
    }

    public function testHopByHopAndRelayHeadersAreNotForwarded(): void
    {
        $nginx = Rig::shared()->nginx();
        $relay = RelayProcess::start(['--allow-private-networks']);
        $answer = $relay->raw("GET " . $nginx->url('plain', '/headers') . " HTTP/1.1\r\nX-WarmHttp-Mode: sync\r\nProxy-Authorization: secret\r\nConnection: X-Foo\r\nX-Foo: hop\r\nX-Test: kept\r\nKeep-Alive: 5\r\n\r\n");
        self::assertStringStartsWith('HTTP/1.1 200 ', $answer);
        $echoed = strtolower(substr($answer, (int) strpos($answer, "\r\n\r\n")));
        self::assertStringContainsString('x-test: kept', $echoed);
        foreach (['proxy-authorization', 'x-foo', 'x-warmhttp', 'keep-alive'] as $stripped) {
            self::assertStringNotContainsString($stripped, $echoed);
        }
        $relay->remove();
    }

    public function testTheTcpListenerRequiresTheTokenAndLoopback(): void
    {
        $port = \WarmHttp\Rig\FreePort::pick();
        $token = bin2hex(random_bytes(32));
        $tokenFile = tempnam(sys_get_temp_dir(), 'relay-token');
        \assert($tokenFile !== false);
        file_put_contents($tokenFile, $token);
        chmod($tokenFile, 0o600);
        $relay = RelayProcess::start(['--allow-private-networks', "--tcp=127.0.0.1:$port", "--token-file=$tokenFile"]);
        $client = new Client(['relay' => "tcp://127.0.0.1:$port", 'relay_token' => $token]);
        $client->dispatch($client->createRequest('POST', Rig::shared()->nginx()->url('plain', '/echo-body?tcp=1')));
        self::assertSame(1, Rig::shared()->nginx()->awaitRequests(1, '/echo-body?tcp=1', 10.0));

        $logger = new MemoryLogger();
        // The fallback applies the relay's destination policy: this one allows what the relay does.
        $wrong = new Client(['relay' => "tcp://127.0.0.1:$port", 'relay_token' => 'wrong', 'logger' => $logger, 'relay_allow_private_networks' => true]);
        $wrong->dispatch($wrong->createRequest('POST', Rig::shared()->nginx()->url('plain', '/echo-body?tcp=2')));
        self::assertStringContainsString('401', (string) ($logger->contexts('Relay hand-off failed')[0]['reason'] ?? '')); // @phpstan-ignore cast.string
        DeferredSends::flush();
        $relay->remove();

        $public = new \Symfony\Component\Process\Process([\PHP_BINARY, \dirname(__DIR__, 3) . '/bin/warmhttp', 'relay', '--socket=none', '--tcp=0.0.0.0:' . $port, "--token-file=$tokenFile", '--spool=' . sys_get_temp_dir() . '/never.sqlite']);
        $public->run();
        self::assertSame(2, $public->getExitCode()); // Command::INVALID: a wrong --tcp
        self::assertStringContainsString('loopback only', $public->getErrorOutput());
        unlink($tokenFile);
    }

    public function testTheSocketIsGroupOnly(): void
    {
        self::assertSame(0o660, fileperms(self::relay()->socketPath()) & 0o777);
    }

    private static function relay(): RelayProcess
    {
        return self::$relay ??= RelayProcess::start(['--max-body=1000', '--allow-host=127.0.0.2']);
    }
}
