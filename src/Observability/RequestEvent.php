<?php

declare(strict_types=1);

namespace WarmHttp\Observability;

use Psr\Http\Message\RequestInterface;

/**
 * What a listener registered with Client::withListener() receives. The same request object
 * travels through every event of one request, so a listener can key its own state on it
 * (a WeakMap of spans or timers, say).
 */
interface RequestEvent
{
    /** The request as sent: with the client's default headers added. */
    public function request(): RequestInterface;
}
