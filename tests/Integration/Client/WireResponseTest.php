<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Client;

use PHPUnit\Framework\Attributes\DataProvider;
use Psr\Http\Client\NetworkExceptionInterface;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Exception\TimeoutException;
use WarmHttp\Tests\Integration\Relay\RelayProcess;
use WarmHttp\Tests\Integration\RigTestCase;

/**
 * How the engine reads what comes back where the wire is unusual: a HEAD answer that announces
 * a length (real nginx), chunked trailers, a head the client refuses while its body keeps
 * coming, a timeout (raw recorder and nginx on loopback).
 */
final class WireResponseTest extends RigTestCase
{
    private static ?WireRecorder $recorder = null;

    public static function tearDownAfterClass(): void
    {
        self::$recorder = null;
    }

    /** @return iterable<string, array{string, bool}> */
    public static function listeners(): iterable
    {
        foreach (['plain', 'h1tls', 'h2'] as $listener) {
            yield "$listener, buffered" => [$listener, false];
            yield "$listener, streamed" => [$listener, true];
        }
    }

    /**
     * nginx answers a HEAD with the GET's Content-Length and no body: libcurl waited for it
     * (curl error 18 once nginx closed, or the timeout) when the HEAD carried a body.
     */
    #[DataProvider('listeners')]
    public function testAHeadWithABodyGetsItsAnswerAtOnceFromNginx(string $listener, bool $stream): void
    {
        $client = self::client(['timeout' => 5, 'stream' => $stream]);
        $request = $client->createRequest('HEAD', self::nginxUrl($listener, '/fast'))
            ->withHeader('Content-Type', 'application/x-www-form-urlencoded')
            ->withBody($client->createStream('param1=foo'));
        $started = microtime(true);

        $response = $client->sendRequest($request);

        self::assertLessThan(1.0, microtime(true) - $started);
        self::assertSame(200, $response->getStatusCode());
        self::assertSame('2', $response->getHeaderLine('Content-Length'));
        self::assertSame('', (string) $response->getBody());
        self::assertSame('ok', (string) $client->sendRequest($client->createRequest('GET', self::nginxUrl($listener, '/fast')))->getBody(), 'the pool is still usable');
    }

    /** The relay's upstream transfer goes through the same engine: sync mode timed out here. */
    public function testAHeadWithABodyGetsItsAnswerAtOnceThroughTheRelaySync(): void
    {
        $relay = RelayProcess::start(['--allow-private-networks']);
        $client = self::client(['timeout' => 5, 'relay' => $relay->address(), 'relay_sync' => true]);
        $started = microtime(true);

        $response = $client->sendRequest($client->createRequest('HEAD', self::nginxUrl('plain', '/fast'))->withBody($client->createStream('param1=foo')));

        self::assertLessThan(1.0, microtime(true) - $started);
        self::assertSame(200, $response->getStatusCode());
        self::assertSame('', (string) $response->getBody());
    }

    public function testAHeadWithABodySendsTheBody(): void
    {
        $recorder = self::recorder();
        $client = self::client(['timeout' => 5]);
        $seen = $recorder->count();

        $response = $client->sendRequest($client->createRequest('HEAD', $recorder->url('/head'))->withBody($client->createStream('param1=foo')));

        self::assertSame(200, $response->getStatusCode());
        self::assertStringEndsWith("\r\nContent-Length: 10\r\n\r\nparam1=foo", $recorder->last($seen));
    }

    /** @return iterable<string, array{string, bool, string}> */
    public static function trailers(): iterable
    {
        foreach (['buffered' => false, 'streamed' => true] as $mode => $stream) {
            yield "empty body, $mode" => ['/trailers', $stream, ''];
            yield "a body, $mode" => ['/trailers-body', $stream, 'ok'];
        }
    }

    /** The trailer used to be appended to the head, and then read as the head. */
    #[DataProvider('trailers')]
    public function testChunkedTrailersAreNotReadAsTheHead(string $path, bool $stream, string $body): void
    {
        $client = self::client(['timeout' => 5, 'stream' => $stream]);

        $response = $client->sendRequest($client->createRequest('GET', self::recorder()->url($path)));

        self::assertSame(200, $response->getStatusCode());
        self::assertSame(['Transfer-Encoding' => ['chunked']], $response->getHeaders());
        self::assertSame($body, (string) $response->getBody());
    }

    /**
     * The head is refused (a space in a field name, which curl passes on) while the server keeps
     * sending a body: the transfer stops at once, and the exception says why.
     */
    public function testARefusedStreamedHeadStopsTheTransferWithItsReason(): void
    {
        $client = self::client(['timeout' => 5, 'stream' => true]);

        try {
            $client->sendRequest($client->createRequest('GET', self::recorder()->url('/bad-head-drip')));
            self::fail('the head is malformed');
        } catch (NetworkException $e) {
            self::assertStringContainsString('malformed header line "Bad Name: a space in the name"', $e->getMessage());
        }

        self::assertNotNull(self::recorder()->dripClosedAfter(1.0), 'the connection was closed within 1 s');
    }

    public function testATimeoutIsANetworkExceptionToBothCatches(): void
    {
        $client = self::client(['timeout' => 0.3]);
        $request = $client->createRequest('GET', self::nginxUrl('plain', '/slow?ms=3000'));

        try {
            $client->sendRequest($request);
            self::fail('nginx answers after 3 s');
        } catch (NetworkException $e) {
            self::assertInstanceOf(TimeoutException::class, $e);
            self::assertInstanceOf(NetworkExceptionInterface::class, $e);
            self::assertSame($request, $e->getRequest());
            self::assertSame(\CURLE_OPERATION_TIMEDOUT, $e->curlErrno());
        }
    }

    private static function recorder(): WireRecorder
    {
        return self::$recorder ??= WireRecorder::start();
    }
}
