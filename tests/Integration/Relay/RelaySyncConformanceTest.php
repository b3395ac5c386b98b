<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\Attributes\DataProvider;
use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\RequestInterface;
use WarmHttp\Client;
use WarmHttp\Rig\FreePort;
use WarmHttp\Rig\Rig;
use WarmHttp\Tests\Integration\Bridge\Support\PhpOrigin;
use WarmHttp\Tests\Integration\Psr18\ClientConformanceTest;

/**
 * The PSR-18 conformance cases (tests/Integration/Psr18, their own data providers) through a
 * real relay: each request is sent by a direct Client and by a relay_sync Client, and both the
 * caller's outcome (status, reason, version, headers that matter, body, or the exception) and
 * what reached the recording server (method, protocol, every request header, body) are the same.
 */
final class RelaySyncConformanceTest extends RelaySyncTestCase
{
    private static ?PhpOrigin $server = null;
    private static string $record = '';

    public static function setUpBeforeClass(): void
    {
        self::$record = (string) tempnam(sys_get_temp_dir(), 'warmhttp-relay-psr18-');
        self::$server = PhpOrigin::start(\dirname(__DIR__) . '/Psr18/recorder.php', ['WARMHTTP_RECORD' => self::$record]);
    }

    public static function tearDownAfterClass(): void
    {
        parent::tearDownAfterClass();
        self::$server = null;
        @unlink(self::$record);
    }

    /** @return iterable<string, array{string, string, string, array<string, string>, ?string}> method, query, version, headers, body */
    public static function shapes(): iterable
    {
        foreach (ClientConformanceTest::requests() as $name => [$method, $headers, $body]) {
            yield $name => [$method, '', '1.1', $headers, $body];
        }
        foreach (ClientConformanceTest::requestsWithOutcome() as $name => [$query, , , , $version, $headers, $body]) {
            yield $name => ['GET', $query, $version, $headers, $body];
        }
        foreach (ClientConformanceTest::statusCodes() as $status => $case) {
            yield "status $status" => ['GET', 'status=' . $status, '1.1', [], null];
        }
        foreach (['length' => 'POST', 'utf8' => 'GET', 'chunked' => 'GET', 'gzip' => 'GET', 'redirect' => 'GET'] as $query => $method) {
            yield $query => [$method, $query, '1.1', $query === 'gzip' ? ['Accept-Encoding' => 'gzip'] : [], $method === 'POST' ? 'Test data' : null];
        }
        yield '100-continue' => ['POST', 'length', '1.1', ['Expect' => '100-continue'], str_repeat('x', 2048)];
        yield 'large upload' => ['PUT', 'length', '1.1', [], str_repeat('u', 1 << 20)];
    }

    /** @param array<string, string> $headers */
    #[DataProvider('shapes')]
    public function testTheRequestArrivesAndIsAnsweredAsDirectly(string $method, string $query, string $version, array $headers, ?string $body): void
    {
        if ($body !== null) {
            $headers['Content-Length'] = (string) \strlen($body);
        }
        $url = self::url($query);

        $direct = self::exchange(new Client(['timeout' => 10]), $method, $url, $version, $headers, $body);
        $relayed = self::exchange(self::client(['timeout' => 10]), $method, $url, $version, $headers, $body);

        self::assertSame($direct, $relayed);
    }

    public function testFollowingRedirectsAsDirectly(): void
    {
        $url = self::url('redirect');
        $options = ['timeout' => 10, 'follow_redirects' => true];

        self::assertSame(self::exchange(new Client($options), 'GET', $url, '1.1', [], null), self::exchange(self::client($options), 'GET', $url, '1.1', [], null));
    }

    /** @return iterable<string, array{string}> */
    public static function failures(): iterable
    {
        foreach (ClientConformanceTest::invalidRequests() as $name => [$uri]) {
            yield $name => [$uri];
        }
        yield 'unreachable' => ['http://127.0.0.1:' . FreePort::pick() . '/'];
    }

    #[DataProvider('failures')]
    public function testAFailureIsTheSameExceptionCarryingTheRequest(string $uri): void
    {
        self::assertSame(self::exchange(new Client(), 'GET', $uri, '1.1', [], null), self::exchange(self::client(), 'GET', $uri, '1.1', [], null));
    }

    /** @param string $listener h2, h1tls or plain */
    #[DataProvider('tlsListeners')]
    public function testTlsAndHttp2AsDirectly(string $listener): void
    {
        $url = Rig::shared()->nginx()->url($listener, '/fast');
        $options = ['cafile' => Rig::shared()->caFile()];

        self::assertSame(self::exchange(new Client($options), 'GET', $url, '1.1', [], null, false), self::exchange(self::client($options), 'GET', $url, '1.1', [], null, false));
    }

    /** @return iterable<string, array{string}> */
    public static function tlsListeners(): iterable
    {
        foreach (ClientConformanceTest::tlsListeners() as $name => [$listener]) {
            yield $name => [$listener];
        }
    }

    public function testSendAsyncAndSendAllAsDirectly(): void
    {
        $nginx = Rig::shared()->nginx();
        $outcomes = [];
        foreach (['direct' => new Client(), 'relayed' => self::client()] as $way => $client) {
            $requests = ['fast' => $client->createRequest('GET', $nginx->url('plain', '/fast')), 'bytes' => $client->createRequest('GET', $nginx->url('plain', '/bytes/10k')), 'refused' => $client->createRequest('GET', 'http://127.0.0.1:' . FreePort::pick() . '/')];
            $outcomes[$way]['async'] = (string) $client->sendAsync($requests['fast'])->wait()->getBody();
            foreach ($client->sendAll($requests) as $key => $outcome) {
                $outcomes[$way][$key] = $outcome instanceof ClientExceptionInterface ? $outcome::class : $outcome->getStatusCode() . ' ' . \strlen((string) $outcome->getBody());
            }
        }

        self::assertSame($outcomes['direct'], $outcomes['relayed']);
    }

    /**
     * The caller's outcome and, for an answered request, what the server received.
     *
     * @param array<string, string> $headers
     *
     * @return array<string, mixed>
     */
    private static function exchange(Client $client, string $method, string $url, string $version, array $headers, ?string $body, bool $recorded = true): array
    {
        @unlink(self::$record);
        $request = self::request($client, $method, $url, $version, $headers, $body);
        try {
            $response = $client->sendRequest($request);
        } catch (ClientExceptionInterface $e) {
            self::assertSame($request, method_exists($e, 'getRequest') ? $e->getRequest() : null);

            return ['exception' => $e::class, 'message' => (string) preg_replace('/after \d+ ms/', 'after N ms', $e->getMessage())];
        }
        // The framing is each hop's own (the relay frames what it passes on itself), and php -S
        // answers with a "Host" line the relay drops (HeaderFilter, hop-by-hop).
        $headers = array_diff_key(array_change_key_case($response->getHeaders()), array_flip(['date', 'connection', 'content-length', 'transfer-encoding', 'host']));
        ksort($headers);

        return [
            'status' => $response->getStatusCode(),
            'reason' => $response->getReasonPhrase(),
            'version' => $response->getProtocolVersion(),
            'headers' => $recorded ? $headers : [],
            'body' => (string) $response->getBody(),
            'arrived' => $recorded ? self::arrived() : [],
        ];
    }

    /** @param array<string, string> $headers */
    private static function request(Client $client, string $method, string $url, string $version, array $headers, ?string $body): RequestInterface
    {
        $request = $client->createRequest($method, $url)->withProtocolVersion($version);
        foreach ($headers as $name => $value) {
            $request = $request->withHeader($name, $value);
        }

        return $body === null ? $request : $request->withBody($client->createStream($body));
    }

    private static function url(string $query = ''): string
    {
        \assert(self::$server !== null);

        return self::$server->url('/') . ($query === '' ? '' : '?' . $query);
    }

    /** @return array<string, mixed> the request line, every request header and the body, as the server got them */
    private static function arrived(): array
    {
        $record = json_decode((string) @file_get_contents(self::$record), true);
        if (!\is_array($record) || !\is_array($record['SERVER'] ?? null) || !\is_string($record['BODY'] ?? null)) {
            return ['nothing' => 'recorded'];
        }
        $kept = [];
        foreach ($record['SERVER'] as $key => $value) {
            if (\is_string($key) && (str_starts_with($key, 'HTTP_') || \in_array($key, ['REQUEST_METHOD', 'SERVER_PROTOCOL', 'REQUEST_URI', 'CONTENT_LENGTH', 'CONTENT_TYPE'], true))) {
                $kept[$key] = $value;
            }
        }
        ksort($kept);

        return $kept + ['BODY' => md5($record['BODY']) . ' ' . \strlen($record['BODY'])];
    }
}
