<?php

declare(strict_types=1);

namespace WarmHttp;

use Psr\Http\Client\ClientExceptionInterface;
use WarmHttp\Internal\CurlPool;
use WarmHttp\Internal\Transfer;
use WarmHttp\Relay\App\DeferredSends;

/**
 * The process-wide pool every Client shares, seen from outside: its counters, and the reset
 * that worker-mode servers (Octane, RoadRunner, FrankenPHP) call between requests.
 */
final class Pool
{
    private function __construct() {}

    /**
     * Caps connections for the whole process (they concern the remote hosts, not one Client):
     * per host, and in total; 0 means no cap. The `max_host_connections` and
     * `max_total_connections` Client options set the same caps.
     */
    public static function limitConnections(int $perHost = 0, int $total = 0): void
    {
        if ($perHost < 0 || $total < 0) {
            throw new \InvalidArgumentException(\sprintf('Pool::limitConnections(): caps must be >= 0 (0 = no cap), got %d and %d.', $perHost, $total));
        }
        CurlPool::get()->limitConnections($perHost, $total);
    }

    public static function stats(): PoolStats
    {
        return CurlPool::get()->stats();
    }

    /**
     * Drops per-request state between two requests of a long-lived worker: transfers still in
     * flight that nobody waited for are cancelled. Warm connections, DNS and TLS sessions stay.
     * Then the dispatch() fallbacks are sent: this is the end of a unit of work, and a
     * long-lived worker's process exit may be hours away.
     */
    public static function reset(): void
    {
        CurlPool::get()->reset(static fn(Transfer $t): ClientExceptionInterface => $t->exchange->stopped($t, 'the pool was reset between two worker requests before this request was awaited'));
        DeferredSends::flush();
    }
}
