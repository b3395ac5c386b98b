<?php

declare(strict_types=1);

namespace WarmHttp;

use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Client\ClientInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;

/**
 * What WarmHttp offers beyond PSR-18: type against this where your code uses sendAsync(),
 * sendAll() or dispatch(), and hand it a `Client` in production and a
 * `Testing\FakeClient` in your tests.
 */
interface HttpClient extends ClientInterface
{
    /** Starts the request now and returns at once; many can be in flight on the shared pool. */
    public function sendAsync(RequestInterface $request): PendingResponse;

    /**
     * Sends every request, at most $concurrency at a time, reading the input lazily.
     *
     * @param iterable<array-key, RequestInterface>                                     $requests
     * @param null|callable(array-key, ResponseInterface|ClientExceptionInterface, int): void $onProgress key, outcome, how many are done so far
     *
     * @return array<array-key, ResponseInterface|ClientExceptionInterface> keyed and ordered like the input
     */
    public function sendAll(iterable $requests, int $concurrency = 50, ?callable $onProgress = null): array;

    /**
     * Fire-and-forget: returns once the request is durably handed over (see Client::dispatch()).
     *
     * @throws Exception\RequestException before anything is sent
     */
    public function dispatch(RequestInterface $request): void;
}
