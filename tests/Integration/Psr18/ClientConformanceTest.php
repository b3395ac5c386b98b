<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Psr18;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Client\NetworkExceptionInterface;
use Psr\Http\Client\RequestExceptionInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Client;
use WarmHttp\Rig\FreePort;
use WarmHttp\Rig\Rig;
use WarmHttp\Tests\Integration\Bridge\Support\PhpOrigin;

/**
 * PSR-18 conformance for WarmHttp\Client. php-http/client-integration-tests is not in the
 * registry copy here, so this covers what its HttpClientTest and HttpFeatureTest cover, with
 * the same cases and the same tolerances, against local servers instead of httpbin.org:
 * every method × header set × body (the server records what arrived), 400/500/302 outcomes ×
 * protocol 1.0/1.1, errors as PSR-18 exceptions; then PSR-18's own rules (1xx reassembly,
 * consistent bodies), status codes, TLS and HTTP/2 through the rig's nginx.
 */
final class ClientConformanceTest extends TestCase
{
    private const DEFAULT_HEADERS = ['Connection' => 'close', 'User-Agent' => 'PHP HTTP Adapter', 'Content-Length' => '0'];

    private static ?PhpOrigin $server = null;
    private static string $record = '';

    public static function setUpBeforeClass(): void
    {
        self::$record = (string) tempnam(sys_get_temp_dir(), 'warmhttp-psr18-');
        self::$server = PhpOrigin::start(__DIR__ . '/recorder.php', ['WARMHTTP_RECORD' => self::$record]);
    }

    public static function tearDownAfterClass(): void
    {
        self::$server = null;
        @unlink(self::$record);
    }

    /** @return iterable<string, array{string, array<string, string>, ?string}> */
    public static function requests(): iterable
    {
        foreach (['GET', 'HEAD', 'TRACE', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as $method) {
            foreach (self::headerSets() as $h => $headers) {
                foreach (self::bodies() as $b => $body) {
                    if ($method !== 'TRACE' || $body === null) { // TRACE with a body breaks RFC 9110
                        yield "$method headers#$h body#$b" => [$method, $headers, $body];
                    }
                }
            }
        }
    }

    /** @param array<string, string> $headers */
    #[DataProvider('requests')]
    public function testSendRequest(string $method, array $headers, ?string $body): void
    {
        if ($body !== null) {
            $headers['Content-Length'] = (string) \strlen($body);
        }

        $response = self::client()->sendRequest(self::request($method, self::url(), $headers, $body));

        self::assertResponse($response, '1.1', 200, 'OK', $method === 'HEAD' ? null : 'Ok');
        self::assertRequestArrived($method, $headers, $body, '1.1');
    }

    /** @return iterable<string, array{string, int, string, string, string, array<string, string>, ?string}> */
    public static function requestsWithOutcome(): iterable
    {
        $outcomes = ['client_error' => [400, 'Bad Request', 'Ok'], 'server_error' => [500, 'Internal Server Error', 'Ok'], 'redirect' => [302, 'Found', 'Redirect']];
        foreach ($outcomes as $query => [$status, $reason, $body]) {
            foreach (['1.1', '1.0'] as $version) {
                foreach (self::headerSets() as $h => $headers) {
                    foreach (self::bodies() as $b => $requestBody) {
                        yield "$query HTTP/$version headers#$h body#$b" => [$query, $status, $reason, $body, $version, $headers, $version === '1.0' ? null : $requestBody];
                    }
                }
            }
        }
    }

    /** @param array<string, string> $headers */
    #[DataProvider('requestsWithOutcome')]
    public function testSendRequestWithOutcome(string $query, int $status, string $reason, string $body, string $version, array $headers, ?string $requestBody): void
    {
        if ($requestBody !== null) {
            $headers['Content-Length'] = (string) \strlen($requestBody);
        }
        $request = self::request('GET', self::url($query), $headers, $requestBody)->withProtocolVersion($version);

        $response = self::client()->sendRequest($request);

        self::assertResponse($response, $version, $status, $reason, $body);
        self::assertRequestArrived('GET', $headers, $requestBody, $version);
    }

    public function testAnUnreachableServerIsANetworkExceptionCarryingTheRequest(): void
    {
        $request = self::request('GET', \sprintf('http://127.0.0.1:%d/', FreePort::pick()), self::DEFAULT_HEADERS, null);

        try {
            self::client()->sendRequest($request);
            self::fail('nothing listens there');
        } catch (NetworkExceptionInterface $e) {
            self::assertSame($request, $e->getRequest());
        }
    }

    /** @return iterable<string, array{string}> */
    public static function invalidRequests(): iterable
    {
        yield 'no host' => ['/relative/only'];
        yield 'unsupported scheme' => ['ftp://127.0.0.1/file'];
    }

    #[DataProvider('invalidRequests')]
    public function testAnInvalidRequestIsARequestExceptionCarryingTheRequest(string $uri): void
    {
        $request = self::request('GET', $uri, [], null);

        try {
            self::client()->sendRequest($request);
            self::fail('the request cannot be sent');
        } catch (RequestExceptionInterface $e) {
            self::assertSame($request, $e->getRequest());
            self::assertInstanceOf(ClientExceptionInterface::class, $e);
        }
    }

    /** @return iterable<int, array{int, string, bool}> */
    public static function statusCodes(): iterable
    {
        foreach ([[200, 'OK', true], [201, 'Created', true], [204, 'No Content', false], [301, 'Moved Permanently', true], [304, 'Not Modified', false], [404, 'Not Found', true], [429, 'Too Many Requests', true], [503, 'Service Unavailable', true]] as $case) {
            yield $case[0] => $case;
        }
    }

    /** PSR-18: a status code is a response, never an exception. */
    #[DataProvider('statusCodes')]
    public function testEveryStatusCodeIsReturnedAsAResponse(int $status, string $reason, bool $hasBody): void
    {
        $response = self::client()->sendRequest(self::request('GET', self::url('status=' . $status), [], null));

        self::assertSame($status, $response->getStatusCode());
        self::assertSame($reason, $response->getReasonPhrase());
        self::assertSame($hasBody ? 'status ' . $status : '', (string) $response->getBody());
    }

    /** PSR-18: "A Client MUST reassemble a multi-step HTTP 1xx response itself". */
    public function testAnInterim100ContinueIsFoldedIntoTheFinalResponse(): void
    {
        $body = str_repeat('x', 2048);
        $request = self::request('POST', self::url('length'), ['Expect' => '100-continue'], $body);

        $response = self::client()->sendRequest($request);

        self::assertSame(200, $response->getStatusCode());
        self::assertSame('2048', (string) $response->getBody());
    }

    public function testTheContentLengthIsSetWhenTheRequestHasNone(): void
    {
        $response = self::client()->sendRequest(self::request('POST', self::url('length'), [], 'Test data'));

        self::assertSame('9', (string) $response->getBody());
        self::assertSame('9', self::arrived()['SERVER']['HTTP_CONTENT_LENGTH'] ?? null);
    }

    public function testAUtf8BodyArrivesByteForByte(): void
    {
        $response = self::client()->sendRequest(self::request('GET', self::url('utf8'), [], null));

        self::assertSame('Prix: 10 €, Grüße, 日本', (string) $response->getBody());
    }

    public function testAChunkedBodyIsDechunked(): void
    {
        $response = self::client()->sendRequest(self::request('GET', self::url('chunked'), [], null));

        self::assertSame(['part' => 1, 'of' => 3], json_decode((string) $response->getBody(), true));
        self::assertFalse($response->hasHeader('Content-Length') && $response->hasHeader('Transfer-Encoding'));
    }

    /** PSR-18: a client that alters a response "MUST ensure that the object remains internally consistent". */
    public function testAnEncodedBodyStaysConsistentWithItsHeaders(): void
    {
        $response = self::client()->sendRequest(self::request('GET', self::url('gzip'), ['Accept-Encoding' => 'gzip'], null));
        $body = (string) $response->getBody();

        $decoded = $response->getHeaderLine('Content-Encoding') === 'gzip' ? gzdecode($body) : $body;
        self::assertSame('{"gzipped": true}', $decoded);
    }

    public function testRedirectsAreReturnedUnlessFollowingIsAskedFor(): void
    {
        $request = self::request('GET', self::url('redirect'), [], null);

        self::assertSame(302, self::client()->sendRequest($request)->getStatusCode());
        self::assertSame(200, self::client(['follow_redirects' => true])->sendRequest($request)->getStatusCode());
    }

    public function testALargeBodyGoesAndComesBackWhole(): void
    {
        $upload = random_bytes(1 << 20);

        $response = self::client()->sendRequest(self::request('PUT', self::url('length'), [], $upload));

        self::assertSame((string) (1 << 20), (string) $response->getBody());
        self::assertSame(1 << 20, \strlen((string) self::client()->sendRequest(self::request('GET', Rig::shared()->nginx()->url('plain', '/bytes/1m'), [], null))->getBody()));
    }

    /** @return iterable<string, array{string, string}> */
    public static function tlsListeners(): iterable
    {
        yield 'TLS, HTTP/2' => ['h2', '2'];
        yield 'TLS, HTTP/1.1' => ['h1tls', '1.1'];
        yield 'plain HTTP/1.1' => ['plain', '1.1'];
    }

    #[DataProvider('tlsListeners')]
    public function testProtocolVersionsOverTlsAndPlain(string $listener, string $version): void
    {
        $client = self::client(['cafile' => Rig::shared()->caFile()]);

        $response = $client->sendRequest(self::request('GET', Rig::shared()->nginx()->url($listener, '/fast'), [], null));

        self::assertSame($version, $response->getProtocolVersion());
        self::assertSame('ok', (string) $response->getBody());
    }

    public function testSendAsyncAgreesWithSendRequest(): void
    {
        $client = self::client();
        $request = self::request('POST', self::url(), ['Content-Length' => '5'], 'hello');

        $async = $client->sendAsync($request)->wait();
        $sync = $client->sendRequest($request);

        self::assertSame([$sync->getStatusCode(), (string) $sync->getBody()], [$async->getStatusCode(), (string) $async->getBody()]);
    }

    /** @return array<int, array<string, string>> */
    private static function headerSets(): array
    {
        return [self::DEFAULT_HEADERS, self::DEFAULT_HEADERS + ['Accept-Charset' => 'utf-8', 'Accept-Language' => 'en']];
    }

    /** @return array<int, ?string> */
    private static function bodies(): array
    {
        return [null, http_build_query(['param1' => 'foo', 'param2' => ['bar', ['baz']]], '', '&')];
    }

    /** @param array<string, mixed> $options */
    private static function client(array $options = []): Client
    {
        return new Client($options + ['timeout' => 10]);
    }

    /** @param array<string, string> $headers */
    private static function request(string $method, string $uri, array $headers, ?string $body): RequestInterface
    {
        $client = self::client();
        $request = $client->createRequest($method, $uri);
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

    /** The suite's tolerance: the response may speak a higher minor version than asked. */
    private static function assertResponse(ResponseInterface $response, string $version, int $status, string $reason, ?string $body): void
    {
        self::assertSame($version[0], $response->getProtocolVersion()[0]);
        self::assertNotSame(1, version_compare($version, $response->getProtocolVersion()));
        self::assertSame($status, $response->getStatusCode());
        self::assertSame($reason, $response->getReasonPhrase());
        self::assertStringStartsWith('text/html', $response->getHeaderLine('Content-Type'));
        if ($body === null || $body === '') {
            self::assertSame('', (string) $response->getBody());
        } else {
            self::assertStringContainsString($body, (string) $response->getBody());
        }
    }

    /** @param array<string, string> $headers */
    private static function assertRequestArrived(string $method, array $headers, ?string $body, string $version): void
    {
        $arrived = self::arrived();
        $server = $arrived['SERVER'];
        $protocol = $server['SERVER_PROTOCOL'] ?? '';
        $arrivedVersion = substr(\is_string($protocol) ? $protocol : '', 5);
        self::assertSame($version[0], $arrivedVersion[0] ?? '');
        self::assertNotSame(1, version_compare($version, $arrivedVersion));
        self::assertSame($method, $server['REQUEST_METHOD'] ?? null);
        foreach ($headers as $name => $value) {
            $key = 'HTTP_' . strtoupper(str_replace('-', '_', $name));
            if ($method === 'TRACE' && $key === 'HTTP_CONTENT_LENGTH' && !isset($server[$key])) {
                continue;
            }
            self::assertSame($value, $server[$key] ?? null, "header $name");
        }
        self::assertSame($body ?? '', $arrived['BODY']);
    }

    /** @return array{SERVER: array<string, mixed>, BODY: string} */
    private static function arrived(): array
    {
        $record = json_decode((string) file_get_contents(self::$record), true);
        \assert(\is_array($record) && \is_array($record['SERVER'] ?? null) && \is_string($record['BODY'] ?? null));

        /** @var array{SERVER: array<string, mixed>, BODY: string} */
        return $record;
    }
}
