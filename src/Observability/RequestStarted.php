<?php

declare(strict_types=1);

namespace WarmHttp\Observability;

use Psr\Http\Message\RequestInterface;

/** The request was handed to the pool (sendRequest, sendAsync, sendAll, inside concurrently()). */
final readonly class RequestStarted implements RequestEvent
{
    public function __construct(public RequestInterface $request) {}

    public function request(): RequestInterface
    {
        return $this->request;
    }
}
