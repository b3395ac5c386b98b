<?php

declare(strict_types=1);

namespace WarmHttp\Observability;

use Psr\Http\Message\RequestInterface;

/**
 * dispatch() handed the request over: spooled by the relay, or journaled for a fallback send.
 * What happens to it later is the relay's (see its /metrics), not this process's.
 */
final readonly class RequestDispatched implements RequestEvent
{
    public function __construct(public RequestInterface $request) {}

    public function request(): RequestInterface
    {
        return $this->request;
    }
}
