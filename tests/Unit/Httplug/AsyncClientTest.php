<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Httplug;

use Http\Client\Exception\NetworkException as HttplugNetworkException;
use Http\Client\Exception\RequestException as HttplugRequestException;
use Http\Client\Exception\TransferException;
use Http\Promise\Promise;
use PHPUnit\Framework\TestCase;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Exception\RequestException;
use WarmHttp\Exception\ResponseTooLargeException;
use WarmHttp\Httplug\AsyncClient;
use WarmHttp\Testing\FakeClient;

/**
 * The async client over a FakeClient: how an SDK's own tests can run without a network, and
 * how each WarmHttp exception maps to HTTPlug's.
 */
final class AsyncClientTest extends TestCase
{
    public function testAFakeAnswerFulfillsThePromise(): void
    {
        $fake = new FakeClient(FakeClient::response(201, [], 'created'));
        $async = new AsyncClient($fake);

        $response = $async->sendAsyncRequest($fake->createRequest('POST', 'https://sdk.example.test/items'))->wait();

        \assert($response instanceof ResponseInterface);
        self::assertSame('created', (string) $response->getBody());
        $fake->assertSent(static fn(RequestInterface $r): bool => $r->getMethod() === 'POST');
    }

    public function testEachWarmHttpExceptionBecomesTheMatchingHttplugOne(): void
    {
        $fake = new FakeClient();
        $request = $fake->createRequest('GET', 'https://sdk.example.test/');
        $cases = [
            HttplugNetworkException::class => new NetworkException($request, 'refused'),
            HttplugRequestException::class => new RequestException($request, 'bad header'),
            // a request error in PSR-18's terms: HTTPlug's RequestException too
            HttplugRequestException::class . ' (too large)' => new ResponseTooLargeException($request, 'too large'),
        ];
        foreach ($cases as $expected => $thrown) {
            $promise = (new AsyncClient($fake->queue($thrown)))->sendAsyncRequest($request);
            $reason = null;
            $promise->then(null, static function (\Throwable $e) use (&$reason): void {
                $reason = $e;
            });

            self::assertSame(Promise::REJECTED, $promise->getState());
            self::assertInstanceOf(explode(' ', $expected)[0], $reason, $expected);
            self::assertInstanceOf(TransferException::class, $reason);
            self::assertSame($thrown, $reason->getPrevious());
        }
    }

    public function testSendRequestIsThePsr18CallOfTheWrappedClient(): void
    {
        $fake = new FakeClient(FakeClient::response(204));

        self::assertSame(204, (new AsyncClient($fake))->sendRequest($fake->createRequest('GET', 'https://sdk.example.test/'))->getStatusCode());
    }
}
