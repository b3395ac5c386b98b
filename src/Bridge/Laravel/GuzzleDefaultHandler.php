<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Laravel;

use GuzzleHttp\Handler\CurlHandler;
use GuzzleHttp\Handler\CurlMultiHandler;
use GuzzleHttp\Handler\Proxy;
use GuzzleHttp\Handler\StreamHandler;

/**
 * Recognises what GuzzleHttp\Utils::chooseHandler() returns: one of Guzzle's own handlers,
 * or the closure Handler\Proxy wraps them in.
 *
 * @internal
 */
final class GuzzleDefaultHandler
{
    public static function is(mixed $handler): bool
    {
        if ($handler instanceof CurlHandler || $handler instanceof CurlMultiHandler || $handler instanceof StreamHandler) {
            return true;
        }
        if (!$handler instanceof \Closure) {
            return false;
        }

        return (new \ReflectionFunction($handler))->getClosureScopeClass()?->getName() === Proxy::class;
    }
}
