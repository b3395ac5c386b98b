<?php

declare(strict_types=1);

namespace WarmHttp;

use WarmHttp\Exception\NetworkException;
use WarmHttp\Internal\CurlPool;
use WarmHttp\Internal\ResponseParser;
use WarmHttp\Internal\Transfer;

/**
 * The process-wide pool every Client shares, seen from outside: its counters, and the reset
 * that worker-mode servers (Octane, RoadRunner, FrankenPHP) call between requests.
 */
final class Pool
{
    private function __construct()
    {
    }

    public static function stats(): PoolStats
    {
        return CurlPool::get()->stats();
    }

    /**
     * Drops per-request state between two requests of a long-lived worker: transfers still in
     * flight that nobody waited for are cancelled. Warm connections, DNS and TLS sessions stay.
     */
    public static function reset(): void
    {
        CurlPool::get()->reset(static fn (Transfer $t): NetworkException => new NetworkException(
            $t->request,
            ResponseParser::describe($t->request, 'the pool was reset between two worker requests before this request was awaited'),
        ));
    }
}
