<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use Psr\Log\LoggerInterface;

/**
 * The fallback when the relay cannot take a request: send it after the response has gone to
 * the browser (fastcgi_finish_request() under PHP-FPM), else at shutdown. Process-wide, so
 * every Client's fallbacks go out in one pass, on the shared warm pool.
 *
 * @internal
 */
final class DeferredSends
{
    /** @var list<array{RequestInterface, \Closure(RequestInterface): ResponseInterface, LoggerInterface}> */
    private static array $queue = [];

    private static bool $registered = false;

    /** @param \Closure(RequestInterface): ResponseInterface $sendNow */
    public static function add(RequestInterface $request, \Closure $sendNow, LoggerInterface $logger): void
    {
        self::$queue[] = [$request, $sendNow, $logger];
        if (!self::$registered) {
            self::$registered = true;
            register_shutdown_function(self::flush(...));
        }
    }

    public static function pending(): int
    {
        return \count(self::$queue);
    }

    /** Sends everything queued; called at shutdown, callable earlier by long-running workers. */
    public static function flush(): void
    {
        if (self::$queue === []) {
            return;
        }
        if (\PHP_SAPI === 'fpm-fcgi' && \function_exists('fastcgi_finish_request')) {
            fastcgi_finish_request(); // the browser has its response; now we may take our time
        }
        while (($entry = array_shift(self::$queue)) !== null) {
            self::send(...$entry);
        }
    }

    /** @param \Closure(RequestInterface): ResponseInterface $sendNow */
    private static function send(RequestInterface $request, \Closure $sendNow, LoggerInterface $logger): void
    {
        $context = ['method' => $request->getMethod(), 'uri' => (string) $request->getUri(), 'idempotency_key' => $request->getHeaderLine('Idempotency-Key')];
        try {
            $response = $sendNow($request);
            $logger->info('Deferred dispatch sent', $context + ['status' => $response->getStatusCode()]);
        } catch (\Throwable $e) {
            $logger->error('Deferred dispatch FAILED: the request was not delivered', $context + ['error' => $e->getMessage()]);
        }
    }
}
