<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Client;

use Http\Client\Exception\NetworkException as HttplugNetworkException;
use Http\Client\Exception\RequestException as HttplugRequestException;
use Http\Promise\Promise;
use PHPUnit\Framework\Attributes\DataProvider;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Client;

use function WarmHttp\concurrently;

use WarmHttp\Exception\NetworkException;
use WarmHttp\Exception\TimeoutException;
use WarmHttp\Httplug\AsyncClient;
use WarmHttp\Rig\FreePort;
use WarmHttp\Tests\Integration\Bridge\Support\PhpOrigin;
use WarmHttp\Tests\Integration\RigTestCase;

/**
 * HTTPlug's async contract on real loopback servers. php-http/client-integration-tests is not
 * in the registry copy here: these cases cover what its HttpAsyncClientTest checks (chained
 * then() on a response and on a failure, every method x headers x body arriving as sent, 4xx/5xx
 * and 302 outcomes over HTTP/1.0 and 1.1, rejections typed Http\Client\Exception), then what
 * the pool adds: waiting for one promise moves the others, and promises work in fibers.
 */
final class HttplugAsyncClientTest extends RigTestCase
{
    private const DEFAULT_HEADERS = ['Connection' => 'close', 'User-Agent' => 'PHP HTTP Adapter', 'Content-Length' => '0'];

    private static ?PhpOrigin $recorder = null;
    private static string $record = '';

    public static function setUpBeforeClass(): void
    {
        self::$record = (string) tempnam(sys_get_temp_dir(), 'warmhttp-httplug-');
        self::$recorder = PhpOrigin::start(\dirname(__DIR__) . '/Psr18/recorder.php', ['WARMHTTP_RECORD' => self::$record]);
    }

    public static function tearDownAfterClass(): void
    {
        self::$recorder = null;
        @unlink(self::$record);
    }

    public function testCallbacksChainedOnAResponseRunByTheTimeTheFirstPromiseIsWaitedFor(): void
    {
        $promise = self::async()->sendAsyncRequest(self::request('GET', self::nginxUrl('h2'), self::DEFAULT_HEADERS, null));
        $response = null;
        $promise->then()->then()->then(static function (ResponseInterface $r) use (&$response): void {
            $response = $r;
        });

        $promise->wait();

        self::assertInstanceOf(ResponseInterface::class, $response);
        self::assertSame('ok', (string) $response->getBody());
        self::assertSame(Promise::FULFILLED, $promise->getState());
    }

    public function testAFailureTravelsDownTheChainAsAnHttplugException(): void
    {
        $promise = self::async()->sendAsyncRequest(self::request('GET', self::refusedUrl(), self::DEFAULT_HEADERS, null));
        $response = null;
        $exception = null;
        $promise->then()->then()->then(static function (ResponseInterface $r) use (&$response): void {
            $response = $r;
        }, static function (\Throwable $e) use (&$exception): void {
            $exception = $e;
        });

        $promise->wait(false);

        self::assertNull($response);
        self::assertInstanceOf(HttplugNetworkException::class, $exception);
        self::assertInstanceOf(\Psr\Http\Client\NetworkExceptionInterface::class, $exception, 'a PSR-18 network exception too');
        self::assertInstanceOf(NetworkException::class, $exception->getPrevious(), 'the WarmHttp exception is kept');
        self::assertSame(Promise::REJECTED, $promise->getState());
    }

    public function testWaitThrowsTheRejectionAndCarriesTheRequest(): void
    {
        $request = self::request('GET', self::refusedUrl(), self::DEFAULT_HEADERS, null);

        try {
            self::async()->sendAsyncRequest($request)->wait();
            self::fail('nothing listens there');
        } catch (HttplugNetworkException $e) {
            self::assertSame($request, $e->getRequest());
            self::assertStringContainsString('GET ' . $request->getUri() . ' failed:', $e->getMessage());
        }
    }

    public function testATimeoutIsAnHttplugNetworkExceptionWithTheTimeoutBehind(): void
    {
        $promise = self::async(['timeout' => 0.2])->sendAsyncRequest(self::request('GET', self::nginxUrl('plain', '/slow?ms=2000'), [], null));

        $this->expectException(HttplugNetworkException::class);
        try {
            $promise->wait();
        } catch (HttplugNetworkException $e) {
            self::assertInstanceOf(TimeoutException::class, $e->getPrevious());

            throw $e;
        }
    }

    public function testARequestThatCannotBeSentIsARejectedPromiseNotAThrow(): void
    {
        $promise = self::async()->sendAsyncRequest(self::request('GET', 'ftp://127.0.0.1/file', [], null));

        self::assertSame(Promise::REJECTED, $promise->getState());
        $this->expectException(HttplugRequestException::class);
        $promise->wait();
    }

    /** @return iterable<string, array{string, array<string, string>, ?string}> */
    public static function requests(): iterable
    {
        foreach (['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as $method) {
            foreach (self::headerSets() as $h => $headers) {
                foreach ([null, 'param1=foo&param2%5B0%5D=bar'] as $b => $body) {
                    yield "$method headers#$h body#$b" => [$method, $headers, $body];
                }
            }
        }
    }

    /** @param array<string, string> $headers */
    #[DataProvider('requests')]
    public function testEveryRequestShapeArrivesAsSent(string $method, array $headers, ?string $body): void
    {
        if ($body !== null) {
            $headers['Content-Length'] = (string) \strlen($body);
        }
        $response = null;
        $promise = self::async()->sendAsyncRequest(self::request($method, self::recorderUrl(), $headers, $body));
        $promise->then(static function (ResponseInterface $r) use (&$response): void {
            $response = $r;
        });

        $promise->wait();

        self::assertInstanceOf(ResponseInterface::class, $response);
        self::assertSame(200, $response->getStatusCode());
        self::assertSame($method === 'HEAD' ? '' : 'Ok', (string) $response->getBody());
        self::assertArrived($method, $headers, $body, '1.1');
    }

    /** @return iterable<string, array{string, int, string, array<string, string>}> */
    public static function outcomes(): iterable
    {
        foreach (['client_error' => 400, 'server_error' => 500, 'redirect' => 302] as $query => $status) {
            foreach (['1.1', '1.0'] as $version) {
                foreach (self::headerSets() as $h => $headers) {
                    yield "$query HTTP/$version headers#$h" => [$query, $status, $version, $headers];
                }
            }
        }
    }

    /** @param array<string, string> $headers */
    #[DataProvider('outcomes')]
    public function testErrorStatusesAndRedirectsFulfillWithTheResponseInTheRequestsVersion(string $query, int $status, string $version, array $headers): void
    {
        $request = self::request('GET', self::recorderUrl('?' . $query), $headers, null)->withProtocolVersion($version);

        $response = self::async()->sendAsyncRequest($request)->wait();

        self::assertInstanceOf(ResponseInterface::class, $response);
        self::assertSame($status, $response->getStatusCode());
        self::assertSame($version, $response->getProtocolVersion());
        self::assertArrived('GET', $headers, null, $version);
    }

    public function testWaitingForOnePromiseMovesTheOthersAlong(): void
    {
        $async = self::async();
        $promises = [];
        for ($i = 0; $i < 5; ++$i) {
            $promises[] = $async->sendAsyncRequest(self::request('GET', self::nginxUrl('h2', "/slow?ms=100&i=$i"), [], null));
        }
        $settledMeanwhile = 0;

        $promises[4]->wait();
        foreach ($promises as $promise) {
            $settledMeanwhile += $promise->getState() === Promise::FULFILLED ? 1 : 0;
        }

        self::assertSame(5, $settledMeanwhile, 'all five overlapped on the pool: the last one settled after the others');
    }

    public function testACallbackMayReturnAnotherRequestsPromise(): void
    {
        $async = self::async();
        $chained = $async->sendAsyncRequest(self::request('GET', self::nginxUrl('h2', '/echo/first'), [], null))
            ->then(static fn(ResponseInterface $first): Promise => $async->sendAsyncRequest(self::request('GET', self::nginxUrl('h2', '/echo/after-' . basename((string) $first->getBody())), [], null)))
            ->then(static fn(ResponseInterface $second): string => (string) $second->getBody());

        self::assertSame('/echo/after-first', $chained->wait());
    }

    public function testACallbackMaySendAndWaitItselfWhileOtherRequestsAreInFlight(): void
    {
        $client = self::client(['timeout' => 10]);
        $async = new AsyncClient($client);
        $others = [];
        for ($i = 0; $i < 3; ++$i) {
            $others[] = $async->sendAsyncRequest(self::request('GET', self::nginxUrl('h2', "/slow?ms=50&other=$i"), [], null));
        }
        // The callback runs inside the pool's loop, when /echo/outer settles: it drives the pool again.
        $nested = $async->sendAsyncRequest(self::request('GET', self::nginxUrl('h2', '/echo/outer'), [], null))
            ->then(static function (ResponseInterface $outer) use ($client, $async): string {
                $inner = $client->sendRequest(self::request('GET', self::nginxUrl('h2', '/echo/inner'), [], null));
                $asyncInner = $async->sendAsyncRequest(self::request('GET', self::nginxUrl('h2', '/echo/async-inner'), [], null))
                    ->then(static fn(ResponseInterface $r): string => (string) $r->getBody())
                    ->wait();
                \assert(\is_string($asyncInner));

                return $outer->getBody() . ' then ' . $inner->getBody() . ' then ' . $asyncInner;
            });

        self::assertSame('/echo/outer then /echo/inner then /echo/async-inner', $nested->wait());
        foreach ($others as $other) {
            $response = $other->wait();
            \assert($response instanceof ResponseInterface);
            self::assertSame('ok', (string) $response->getBody());
        }
    }

    public function testAThrowingCallbackRejectsTheNextPromiseAndARejectionHandlerRecovers(): void
    {
        $promise = self::async()->sendAsyncRequest(self::request('GET', self::nginxUrl('h2'), [], null))
            ->then(static function (): never {
                throw new \RuntimeException('the SDK did not like it');
            })
            ->then(null, static fn(\Throwable $e): string => 'recovered from: ' . $e->getMessage());

        self::assertSame('recovered from: the SDK did not like it', $promise->wait());
    }

    public function testPromisesWaitedForInsideConcurrentlyTasksOverlap(): void
    {
        $proxy = self::rig()->proxyTo('h1tls', 20);
        $async = self::async();
        $task = static fn(int $i): \Closure => static function () use ($async, $proxy, $i): string {
            $response = $async->sendAsyncRequest(self::request('GET', $proxy->url("/slow?ms=100&t=$i"), [], null))->wait();
            \assert($response instanceof ResponseInterface);

            return (string) $response->getBody();
        };

        $results = concurrently($task(0), $task(1), $task(2));

        self::assertSame(['ok', 'ok', 'ok'], $results);
        self::assertSame(3, $proxy->connections(), 'three overlapping HTTP/1.1 requests hold three connections');
    }

    /** @param array<string, mixed> $options */
    private static function async(array $options = []): AsyncClient
    {
        return new AsyncClient(self::client($options + ['timeout' => 10]));
    }

    /** @param array<string, string> $headers */
    private static function request(string $method, string $uri, array $headers, ?string $body): RequestInterface
    {
        $factory = new Client();
        $request = $factory->createRequest($method, $uri);
        foreach ($headers as $name => $value) {
            $request = $request->withHeader($name, $value);
        }

        return $body === null ? $request : $request->withBody($factory->createStream($body));
    }

    /** @return array<int, array<string, string>> */
    private static function headerSets(): array
    {
        return [self::DEFAULT_HEADERS, self::DEFAULT_HEADERS + ['Accept-Charset' => 'utf-8', 'Accept-Language' => 'en']];
    }

    private static function recorderUrl(string $query = ''): string
    {
        \assert(self::$recorder !== null);

        return self::$recorder->url('/') . $query;
    }

    private static function refusedUrl(): string
    {
        return \sprintf('http://127.0.0.1:%d/', FreePort::pick());
    }

    /** @param array<string, string> $headers */
    private static function assertArrived(string $method, array $headers, ?string $body, string $version): void
    {
        $record = json_decode((string) file_get_contents(self::$record), true);
        \assert(\is_array($record) && \is_array($record['SERVER'] ?? null));
        $server = $record['SERVER'];
        self::assertSame('HTTP/' . $version, $server['SERVER_PROTOCOL'] ?? null);
        self::assertSame($method, $server['REQUEST_METHOD'] ?? null);
        foreach ($headers as $name => $value) {
            self::assertSame($value, $server['HTTP_' . strtoupper(str_replace('-', '_', $name))] ?? null, "header $name");
        }
        self::assertSame($body ?? '', $record['BODY'] ?? null);
    }
}
