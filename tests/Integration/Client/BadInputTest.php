<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Client;

use Nyholm\Psr7\Request;
use PHPUnit\Framework\Attributes\DataProvider;
use Psr\Http\Message\RequestInterface;
use WarmHttp\Client;
use WarmHttp\Exception\InvalidOptionException;
use WarmHttp\Exception\RequestException;
use WarmHttp\Tests\Integration\RigTestCase;
use WarmHttp\Tests\Integration\Support\RawRequest;

/** Bad input is refused with a message naming what was wrong, before a byte is sent. */
final class BadInputTest extends RigTestCase
{
    /** @return iterable<string, array{\Closure(string): RequestInterface, string}> */
    public static function badRequests(): iterable
    {
        yield 'CR LF in a header value' => [static fn(string $url) => new RawRequest('GET', new Request('GET', $url), ['X-Evil' => ["a\r\nX-Injected: 1"]]), 'CR, LF or NUL'];
        yield 'LF in a header name' => [static fn(string $url) => new RawRequest('GET', new Request('GET', $url), ["X-Bad\nName" => ['1']]), 'Invalid header name'];
        yield 'space in the method' => [static fn(string $url) => new Request('GE T', $url), 'Invalid HTTP method'];
        yield 'CR LF in the method' => [static fn(string $url) => new RawRequest("GET /x HTTP/1.1\r\nHost: a\r\n\r\nGET", new Request('GET', $url)), 'Invalid HTTP method'];
        yield 'relative URI' => [static fn(string $url) => new Request('GET', '/fast'), 'not absolute'];
        yield 'ftp scheme' => [static fn(string $url) => new Request('GET', 'ftp://127.0.0.1/file'), 'Unsupported URI scheme "ftp"'];
        yield 'file scheme' => [static fn(string $url) => new Request('GET', 'file:///etc/passwd'), 'not absolute'];
    }

    /** @param \Closure(string): RequestInterface $make */
    #[DataProvider('badRequests')]
    public function testBadRequestIsRefusedBeforeAnythingIsSent(\Closure $make, string $expected): void
    {
        $origin = self::rig()->rawOrigin();
        $request = $make($origin->url('/ok'));
        $client = self::client();

        foreach ([
            'sendRequest' => static fn() => $client->sendRequest($request),
            'sendAsync' => static fn() => $client->sendAsync($request),
        ] as $how => $send) {
            try {
                $send();
                self::fail("$how accepted a bad request");
            } catch (RequestException $e) {
                self::assertStringContainsString($expected, $e->getMessage());
                self::assertSame($request, $e->getRequest());
            }
        }
        $results = $client->sendAll(['bad' => $request]);
        self::assertInstanceOf(RequestException::class, $results['bad']);
        self::assertSame(0, $origin->stats()['connections'], 'nothing may reach the server');
    }

    public function testRedirectToANonHttpSchemeIsRefused(): void
    {
        $client = self::client(['follow_redirects' => true]);
        $request = $client->createRequest('GET', self::nginxUrl('h2', '/redirect-to?url=ftp://127.0.0.1/x'));

        $this->expectException(RequestException::class);
        $this->expectExceptionMessage('scheme other than http or https');
        $client->sendRequest($request);
    }

    public function testRedirectsAreNotFollowedByDefaultAndFollowedWhenAsked(): void
    {
        $request = self::client()->createRequest('GET', self::nginxUrl('h2', '/redirect/3'));

        self::assertSame(302, self::client()->sendRequest($request)->getStatusCode());
        $followed = self::client(['follow_redirects' => true])->sendRequest($request);
        self::assertSame(200, $followed->getStatusCode());
        self::assertSame('ok', (string) $followed->getBody());
        self::assertInstanceOf(\WarmHttp\Response::class, $followed);
        self::assertSame(3, $followed->stats()->redirects);
    }

    public function testTooManyRedirectsIsARequestError(): void
    {
        $client = self::client(['follow_redirects' => true, 'max_redirects' => 2]);

        $this->expectException(RequestException::class);
        $this->expectExceptionMessage('max_redirects');
        $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', '/redirect/5')));
    }

    /** @return iterable<string, array{array<string, mixed>, string}> */
    public static function badOptions(): iterable
    {
        yield 'unknown name' => [['timout' => 1.0], 'Unknown WarmHttp option "timout". Did you mean "timeout"?'];
        yield 'string timeout' => [['timeout' => '5'], 'Option "timeout" must be a number of seconds'];
        yield 'negative timeout' => [['timeout' => -1], 'Option "timeout" must be a number of seconds'];
        yield 'verify as string' => [['verify' => 'yes'], 'Option "verify" must be a bool'];
        yield 'http version 3' => [['http_version' => '3'], 'Option "http_version" must be "1.1", "2" or "2-upgrade"'];
        yield 'zero connections' => [['max_host_connections' => 0], 'Option "max_host_connections" must be a positive int'];
        yield 'missing cafile' => [['cafile' => '/nonexistent/ca.pem'], 'Option "cafile": the file "/nonexistent/ca.pem" does not exist'];
        yield 'header list' => [['headers' => ['X-A']], 'Option "headers" must be an array of header name => string value'];
        yield 'public relay' => [['relay' => 'tcp://10.0.0.1:80'], 'loopback only'];
    }

    /** @param array<string, mixed> $options */
    #[DataProvider('badOptions')]
    public function testBadOptionsAreRefusedOnConstruction(array $options, string $expected): void
    {
        $this->expectException(InvalidOptionException::class);
        $this->expectExceptionMessage($expected);
        new Client($options);
    }

    public function testConcurrencyBelowOneIsRefused(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage('$concurrency must be at least 1');
        self::client()->sendAll([], 0);
    }
}
