<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use GuzzleHttp\Exception\RequestException as GuzzleRequestException;
use GuzzleHttp\Promise\Create;
use GuzzleHttp\Promise\PromiseInterface;
use Psr\Http\Message\RequestInterface;
use WarmHttp\Client;
use WarmHttp\Exception\InvalidOptionException;
use WarmHttp\Exception\RequestException;

/**
 * A Guzzle handler on WarmHttp's process-wide pool:
 * `new GuzzleHttp\Client(['handler' => HandlerStack::create(new Handler())])`.
 * Every Guzzle Client built on it, sync or async, shares the same warm connections (Guzzle's
 * default keeps one pool per Client, and two inside it: one for sync, one for async).
 * Guzzle's middleware (redirects, cookies, http_errors, retry, history) wraps it unchanged.
 */
final class Handler
{
    private readonly ClientCache $clients;

    /**
     * @param array<string, mixed> $options WarmHttp Client options every request starts from
     *                                      (http_version, caps, relay...); a request's own Guzzle
     *                                      options (timeout, connect_timeout, verify) win
     *
     * @throws InvalidOptionException
     */
    public function __construct(array $options = [])
    {
        $this->clients = new ClientCache($options);
    }

    /** @param array<mixed> $options Guzzle request options */
    public function __invoke(RequestInterface $request, array $options): PromiseInterface
    {
        /** @var array<string, mixed> $options Guzzle's option names are strings */
        $started = microtime(true);
        try {
            $client = $this->clients->for(OptionMap::toWarmHttp($request, $options));
            self::delay($options);
            $pending = $client->sendAsync(AcceptEncoding::narrow($request, $options));
        } catch (RequestException|InvalidOptionException $e) {
            $error = new GuzzleRequestException($e->getMessage(), $request, null, $e);
            StatsReport::failure($request, $options, $started, $error);

            return Create::rejectionFor($error);
        }

        return PromiseBridge::promise($pending, $request, $options, $started);
    }

    /**
     * The `delay` option (ms) as Guzzle's CurlHandler applies it: before sending.
     *
     * @param array<string, mixed> $options
     */
    private static function delay(array $options): void
    {
        $delay = $options['delay'] ?? 0;
        if ((\is_int($delay) || \is_float($delay)) && $delay > 0) {
            usleep((int) ($delay * 1000));
        }
    }

    /** A Client for callers who want WarmHttp directly, with this handler's base options. */
    public function client(): Client
    {
        return $this->clients->for([]);
    }
}
