<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Client;

use PHPUnit\Framework\Attributes\DataProvider;
use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Client\NetworkExceptionInterface;
use Psr\Http\Client\RequestExceptionInterface;
use WarmHttp\Client;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Exception\ResponseTooLargeException;
use WarmHttp\Exception\TimeoutException;
use WarmHttp\Rig\FreePort;
use WarmHttp\Tests\Integration\RigTestCase;

/** What the network and servers do wrong reaches the caller as a PSR-18 exception carrying the request. */
final class FailureTest extends RigTestCase
{
    /** @return iterable<string, array{string, string}> */
    public static function brokenResponses(): iterable
    {
        yield 'malformed status line' => ['/malformed-status', 'unsupported or malformed HTTP response'];
        yield 'garbage' => ['/garbage', 'unsupported or malformed HTTP response'];
        yield 'header without colon' => ['/bad-header', 'not a valid HTTP response'];
        yield 'truncated body' => ['/truncated', 'truncated'];
        yield 'reset mid-body' => ['/reset-mid-body', 'reset by peer'];
    }

    #[DataProvider('brokenResponses')]
    public function testBrokenResponseIsANetworkException(string $path, string $expected): void
    {
        $origin = self::rig()->rawOrigin();
        $client = self::client();
        $request = $client->createRequest('GET', $origin->url($path));

        try {
            $client->sendRequest($request);
            self::fail('a broken response must not pass for a response');
        } catch (NetworkException $e) {
            self::assertStringContainsString($expected, $e->getMessage());
            self::assertStringContainsString('GET ' . $origin->url($path), $e->getMessage());
            self::assertSame($request, $e->getRequest());
        }
    }

    public function testStalledServerTimesOutWithTheOptionNamed(): void
    {
        $origin = self::rig()->rawOrigin();
        $client = self::client(['timeout' => 0.3]);

        try {
            $client->sendRequest($client->createRequest('GET', $origin->url('/stall')));
            self::fail('a stalled server must time out');
        } catch (TimeoutException $e) {
            self::assertInstanceOf(NetworkExceptionInterface::class, $e);
            self::assertStringContainsString('"timeout" option', $e->getMessage());
        }
    }

    public function testRefusedConnection(): void
    {
        $client = self::client();
        $url = 'http://127.0.0.1:' . FreePort::pick() . '/';

        $this->expectException(NetworkException::class);
        $this->expectExceptionMessage('refused');
        $client->sendRequest($client->createRequest('GET', $url));
    }

    public function testTlsIsVerifiedByDefault(): void
    {
        $client = new Client(); // the rig's CA is not in the system bundle

        try {
            $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2')));
            self::fail('an unknown CA must be refused');
        } catch (NetworkException $e) {
            self::assertStringContainsString('certificate', $e->getMessage());
            self::assertStringContainsString('"cafile"', $e->getMessage());
        }
        $insecure = new Client(['verify' => false]);
        self::assertSame(200, $insecure->sendRequest($client->createRequest('GET', self::nginxUrl('h2')))->getStatusCode());
    }

    public function testResponseOverMaxResponseBytesIsCutOff(): void
    {
        $client = self::client(['max_response_bytes' => 100_000]);
        self::assertSame(10240, \strlen((string) $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', '/bytes/10k')))->getBody()));

        try {
            $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', '/bytes/1m')));
            self::fail('1 MiB must not pass a 100 kB limit');
        } catch (ResponseTooLargeException $e) {
            self::assertInstanceOf(RequestExceptionInterface::class, $e);
            self::assertStringContainsString('"max_response_bytes"', $e->getMessage());
        }
    }

    public function testResponseOfUnannouncedSizeOverMaxResponseBytesIsCutOff(): void
    {
        // /slow answers chunked, with no Content-Length for MAXFILESIZE to check up front
        $client = self::client(['max_response_bytes' => 1, 'stream' => false]);

        $this->expectException(ResponseTooLargeException::class);
        $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', '/slow?ms=1')));
    }

    public function testAStreamedBodyOverMaxResponseBytesFailsWhileReading(): void
    {
        // /slow answers chunked: no Content-Length, so the cap is enforced as bytes arrive
        $client = self::client(['max_response_bytes' => 1, 'stream' => true]);

        try {
            // the first chunk is already too large: it fails before or while the body is read
            $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', '/slow?ms=1')))->getBody()->getContents();
            self::fail('a streamed body over max_response_bytes must fail');
        } catch (\RuntimeException $e) {
            self::assertStringContainsString('"max_response_bytes"', $e->getMessage());
        }
    }

    public function testEveryFailureIsAClientException(): void
    {
        $origin = self::rig()->rawOrigin();
        $client = self::client(['timeout' => 0.3]);
        $results = $client->sendAll([
            'ok' => $client->createRequest('GET', $origin->url('/ok')),
            'stall' => $client->createRequest('GET', $origin->url('/stall')),
            'truncated' => $client->createRequest('GET', $origin->url('/truncated')),
        ]);

        self::assertSame(['ok', 'stall', 'truncated'], array_keys($results));
        self::assertNotInstanceOf(ClientExceptionInterface::class, $results['ok']);
        self::assertInstanceOf(TimeoutException::class, $results['stall']);
        self::assertInstanceOf(NetworkException::class, $results['truncated']);
    }
}
