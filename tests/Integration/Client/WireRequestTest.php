<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Client;

use PHPUnit\Framework\Attributes\DataProvider;
use WarmHttp\Client;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Internal\UserAgent;
use WarmHttp\Tests\Integration\RigTestCase;

/**
 * What reaches the server is the request, byte for byte, plus only what HTTP requires (Host,
 * framing) and a default User-Agent: read on the raw bytes a loopback recorder received, and in
 * the rig's nginx access log for the protocol version.
 */
final class WireRequestTest extends RigTestCase
{
    private static ?WireRecorder $recorder = null;

    public static function tearDownAfterClass(): void
    {
        self::$recorder = null;
    }

    /** @return iterable<string, array{string, ?string, string}> method, body, the framing line HTTP requires */
    public static function shapes(): iterable
    {
        foreach (['POST', 'PUT', 'PATCH'] as $method) {
            // A bodiless PATCH announces nothing, as with libcurl and Guzzle's curl (issue 14).
            yield "$method without a body" => [$method, null, $method === 'PATCH' ? '' : "Content-Length: 0\r\n"];
            yield "$method with a body" => [$method, 'a=1&b=2', "Content-Length: 7\r\n"];
        }
        foreach (['GET', 'HEAD', 'DELETE', 'OPTIONS'] as $method) {
            yield "$method without a body" => [$method, null, ''];
            yield "$method with a body" => [$method, 'a=1&b=2', "Content-Length: 7\r\n"];
        }
        yield 'TRACE without a body' => ['TRACE', null, ''];
    }

    #[DataProvider('shapes')]
    public function testEveryShapeGoesAsTheRequestSaysWithHostFramingAndAUserAgentOnly(string $method, ?string $body, string $framing): void
    {
        $recorder = self::recorder();
        $client = new Client(['decode_content' => false, 'timeout' => 5]);
        $request = $client->createRequest($method, $recorder->url('/shape?q=1'));
        if ($body !== null) {
            $request = $request->withBody($client->createStream($body));
        }
        $seen = $recorder->count();

        $response = $client->sendRequest($request);

        self::assertSame(200, $response->getStatusCode());
        self::assertSame(
            "$method /shape?q=1 HTTP/1.1\r\nHost: {$recorder->authority()}\r\n" . UserAgent::HEADER_LINE . "\r\n$framing\r\n" . ($body ?? ''),
            $recorder->last($seen),
        );
    }

    public function testAStreamedBodyOfUnknownSizeIsChunkedAndNothingIsAdded(): void
    {
        $recorder = self::recorder();
        $client = new Client(['decode_content' => false, 'timeout' => 5]);
        $stream = fopen('php://temp', 'w+b');
        \assert($stream !== false);
        fwrite($stream, 'streamed');
        rewind($stream);
        $request = $client->createRequest('POST', $recorder->url('/chunked'))->withBody(new UnsizedStream($client->createStreamFromResource($stream)));
        $seen = $recorder->count();

        $client->sendRequest($request);

        self::assertSame(
            "POST /chunked HTTP/1.1\r\nHost: {$recorder->authority()}\r\nTransfer-Encoding: chunked\r\n" . UserAgent::HEADER_LINE . "\r\n\r\n8\r\nstreamed\r\n0\r\n\r\n",
            $recorder->last($seen),
        );
    }

    public function testTheRequestsOwnHeadersGoAsTheyAreInTheirOrderEmptyValuesIncluded(): void
    {
        $recorder = self::recorder();
        $client = new Client(['decode_content' => false, 'timeout' => 5]);
        $request = $client->createRequest('POST', $recorder->url('/own'))
            ->withHeader('Accept', 'application/json')
            ->withHeader('Content-Type', 'text/plain')
            ->withHeader('User-Agent', 'MyApp/2.0')
            ->withHeader('X-Empty', '')
            ->withHeader('X-Twice', ['a', 'b'])
            ->withBody($client->createStream('hi'));
        $seen = $recorder->count();

        $client->sendRequest($request);

        self::assertSame(
            "POST /own HTTP/1.1\r\nHost: {$recorder->authority()}\r\nAccept: application/json\r\nContent-Type: text/plain\r\nUser-Agent: MyApp/2.0\r\nX-Empty:\r\nX-Twice: a\r\nX-Twice: b\r\nContent-Length: 2\r\n\r\nhi",
            $recorder->last($seen),
        );
    }

    public function testTheClientsHeadersOptionSetsTheUserAgentForEveryRequest(): void
    {
        $recorder = self::recorder();
        $client = new Client(['decode_content' => false, 'timeout' => 5, 'headers' => ['User-Agent' => 'MySdk/1.0']]);
        $seen = $recorder->count();

        $client->sendRequest($client->createRequest('GET', $recorder->url('/ua')));

        self::assertStringContainsString("\r\nUser-Agent: MySdk/1.0\r\n", $recorder->last($seen));
        self::assertStringNotContainsString('WarmHttp/', $recorder->last($seen));
    }

    /**
     * The two lines a default Client adds besides Host and framing: its User-Agent and, with
     * decode_content on (the default), the coding it decodes. A request's own Accept-Encoding
     * replaces the latter (and gets the raw bytes).
     */
    public function testADefaultClientAddsItsUserAgentAndAcceptEncodingGzipOnly(): void
    {
        $recorder = self::recorder();
        $client = new Client(['timeout' => 5]);
        $seen = $recorder->count();

        $client->sendRequest($client->createRequest('GET', $recorder->url('/default')));
        $default = $recorder->last($seen);
        $client->sendRequest($client->createRequest('GET', $recorder->url('/own'))->withHeader('Accept-Encoding', 'identity'));
        $own = $recorder->last($seen + 1);

        self::assertSame("GET /default HTTP/1.1\r\nHost: {$recorder->authority()}\r\nAccept-Encoding: gzip\r\n" . UserAgent::HEADER_LINE . "\r\n\r\n", $default);
        self::assertStringContainsString("\r\nAccept-Encoding: identity\r\n", $own);
        self::assertStringNotContainsString('gzip', $own);
    }

    /**
     * Framing is what is sent: a Content-Length the request carries for a body it does not have
     * would make the server wait for bytes that never come; "Content-Length: 0" (the PSR-18
     * suite sends it on a GET) is kept.
     */
    public function testAFramingHeaderThatDoesNotDescribeWhatIsSentIsNotSent(): void
    {
        $recorder = self::recorder();
        $client = new Client(['decode_content' => false, 'timeout' => 5]);
        $seen = $recorder->count();

        $client->sendRequest($client->createRequest('GET', $recorder->url('/zero'))->withHeader('Content-Length', '0'));
        $zero = $recorder->last($seen);
        $client->sendRequest($client->createRequest('GET', $recorder->url('/lie'))->withHeader('Content-Length', '5')->withHeader('Transfer-Encoding', 'chunked'));
        $lie = $recorder->last($seen + 1);

        self::assertStringContainsString("\r\nContent-Length: 0\r\n", $zero);
        self::assertSame("GET /lie HTTP/1.1\r\nHost: {$recorder->authority()}\r\n" . UserAgent::HEADER_LINE . "\r\n\r\n", $lie);
    }

    public function testARequestMarked10GoesAsHttp10(): void
    {
        $recorder = self::recorder();
        $client = new Client(['decode_content' => false, 'timeout' => 5]);
        $seen = $recorder->count();

        $response = $client->sendRequest($client->createRequest('GET', $recorder->url('/old'))->withProtocolVersion('1.0'));

        self::assertSame('ok', (string) $response->getBody());
        self::assertSame("GET /old HTTP/1.0\r\nHost: {$recorder->authority()}\r\n" . UserAgent::HEADER_LINE . "\r\n\r\n", $recorder->last($seen));
    }

    public function testTheHttpVersionOptionWinsOverTheRequestsVersion(): void
    {
        $recorder = self::recorder();
        $client = new Client(['decode_content' => false, 'timeout' => 5, 'http_version' => '1.1']);
        $seen = $recorder->count();

        $client->sendRequest($client->createRequest('GET', $recorder->url('/pinned'))->withProtocolVersion('1.0'));

        self::assertStringStartsWith("GET /pinned HTTP/1.1\r\n", $recorder->last($seen));
    }

    /** Over http:// a request marked 2 is h2c with prior knowledge: no Upgrade headers are added. */
    public function testARequestMarked2OnAPlainUrlSpeaksH2cWithPriorKnowledge(): void
    {
        $recorder = self::recorder();
        $client = new Client(['decode_content' => false, 'timeout' => 5]);
        $seen = $recorder->count();

        try {
            $client->sendRequest($client->createRequest('GET', $recorder->url('/h2c'))->withProtocolVersion('2.0'));
            self::fail('the recorder speaks no HTTP/2');
        } catch (NetworkException) {
        }

        self::assertStringStartsWith("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", $recorder->last($seen));
    }

    /** @return iterable<string, array{string, ?string, ?string, string}> listener, option, request version, what nginx saw */
    public static function versions(): iterable
    {
        yield 'TLS, 1.1 (PSR-7 default): HTTP/2' => ['h2', null, '1.1', 'HTTP/2.0'];
        yield 'TLS, 2.0: HTTP/2' => ['h2', null, '2.0', 'HTTP/2.0'];
        yield 'TLS, 1.0: HTTP/1.0' => ['h2', null, '1.0', 'HTTP/1.0'];
        yield 'TLS, option 1.1 over a request marked 2' => ['h2', '1.1', '2.0', 'HTTP/1.1'];
        yield 'TLS without h2, 2.0: falls back to 1.1' => ['h1tls', null, '2.0', 'HTTP/1.1'];
        yield 'plain, 1.1' => ['plain', null, '1.1', 'HTTP/1.1'];
        yield 'plain, 1.0' => ['plain', null, '1.0', 'HTTP/1.0'];
    }

    #[DataProvider('versions')]
    public function testTheProtocolVersionNginxSaw(string $listener, ?string $option, string $requestVersion, string $seen): void
    {
        $client = self::client(['decode_content' => false] + array_filter(['http_version' => $option]));
        $nginx = self::rig()->nginx();
        $path = '/echo/version-' . bin2hex(random_bytes(4));

        $client->sendRequest($client->createRequest('GET', $nginx->url($listener, $path))->withProtocolVersion($requestVersion));
        $nginx->awaitRequests(1, $path);

        $entries = array_values(array_filter($nginx->accessLog(), static fn(array $entry): bool => $entry['uri'] === $path));
        self::assertCount(1, $entries);
        self::assertSame($seen, $entries[0]['protocol']);
    }

    private static function recorder(): WireRecorder
    {
        return self::$recorder ??= WireRecorder::start();
    }
}
