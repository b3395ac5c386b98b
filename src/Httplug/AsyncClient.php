<?php

declare(strict_types=1);

namespace WarmHttp\Httplug;

use Http\Client\Exception as HttplugException;
use Http\Client\Exception\NetworkException;
use Http\Client\Exception\RequestException;
use Http\Client\Exception\TransferException;
use Http\Client\HttpAsyncClient;
use Http\Client\HttpClient as HttplugClient;
use Http\Promise\Promise;
use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Client\NetworkExceptionInterface;
use Psr\Http\Client\RequestExceptionInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Client;
use WarmHttp\HttpClient;

/**
 * HTTPlug's async client (php-http/httplug 2) on the warm pool, for SDKs that take an
 * `Http\Client\HttpAsyncClient`: each promise is a request in flight on the shared pool, and
 * waiting for one moves all of them along. Promises are rejected with HTTPlug's exceptions, as
 * its contract asks (they are PSR-18 ones too), each with the WarmHttp exception as previous:
 * `Http\Client\Exception\NetworkException` for network failures and timeouts,
 * `RequestException` for a request that cannot be sent, `TransferException` otherwise.
 */
final class AsyncClient implements HttpAsyncClient, HttplugClient
{
    private readonly HttpClient $client;

    /** @param HttpClient|null $client a Client (new Client() when null), or a Testing\FakeClient */
    public function __construct(?HttpClient $client = null)
    {
        $this->client = $client ?? new Client();
    }

    /** @return Promise resolved with the ResponseInterface, or rejected with an Http\Client\Exception */
    public function sendAsyncRequest(RequestInterface $request): Promise
    {
        try {
            $pending = $this->client->sendAsync($request);
        } catch (ClientExceptionInterface $e) {
            return PoolPromise::rejected(self::httplug($e));
        }
        $promise = new PoolPromise(static function () use ($pending): void {
            try {
                $pending->wait();
            } catch (ClientExceptionInterface) {
                // the promise was rejected with it by onSettle
            }
        });
        $pending->onSettle(static function (ResponseInterface|ClientExceptionInterface $outcome) use ($promise): void {
            $outcome instanceof ResponseInterface ? $promise->resolve($outcome) : $promise->reject(self::httplug($outcome));
        });

        return $promise;
    }

    public function sendRequest(RequestInterface $request): ResponseInterface
    {
        return $this->client->sendRequest($request);
    }

    private static function httplug(ClientExceptionInterface $e): HttplugException
    {
        if ($e instanceof HttplugException) {
            return $e;
        }
        $previous = $e instanceof \Exception ? $e : null; // PSR-18 exceptions are all \Exceptions, the interface cannot say so
        if ($e instanceof NetworkExceptionInterface) {
            return new NetworkException($e->getMessage(), $e->getRequest(), $previous);
        }
        if ($e instanceof RequestExceptionInterface) {
            return new RequestException($e->getMessage(), $e->getRequest(), $previous);
        }

        return new TransferException($e->getMessage(), 0, $previous);
    }
}
