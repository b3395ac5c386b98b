<?php

declare(strict_types=1);

namespace WarmHttp\Observability;

use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\RequestInterface;

/**
 * The request ended without a response: the exception sendRequest() throws (or sendAll()
 * returns), and how long after RequestStarted, in milliseconds.
 */
final readonly class RequestFailed implements RequestEvent
{
    public function __construct(
        public RequestInterface $request,
        public ClientExceptionInterface $exception,
        public float $elapsedMs,
    ) {}

    public function request(): RequestInterface
    {
        return $this->request;
    }
}
