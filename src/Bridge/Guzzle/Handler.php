<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

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
 * Guzzle's middleware (redirects, cookies, http_errors, retry, history) wraps it unchanged
 * when it is given through HandlerStack::create(); given bare, there is no middleware at all,
 * as with any Guzzle handler.
 *
 * As with Guzzle's CurlMultiHandler, a request goes out when one of this handler's promises is
 * waited on (Guzzle's Client does that at once for sync calls), and `delay` is a timer in that
 * wait (see Outbox).
 */
final class Handler
{
    private readonly ClientCache $clients;
    private Outbox $outbox;

    /**
     * @param array<string, mixed> $options WarmHttp Client options every request starts from
     *                                      (http_version, caps, relay...); a request's own Guzzle
     *                                      options (timeout, connect_timeout, verify) win. Without
     *                                      them, no timeout applies, as with Guzzle
     *
     * @throws InvalidOptionException
     */
    public function __construct(array $options = [])
    {
        $this->clients = new ClientCache($options);
        $this->outbox = Outbox::forHandler();
    }

    /** @param array<mixed> $options Guzzle request options */
    public function __invoke(RequestInterface $request, array $options): PromiseInterface
    {
        /** @var array<string, mixed> $options Guzzle's option names are strings */
        RequestChecks::assert($request); // thrown, as by Guzzle's own handlers
        $started = microtime(true);
        if (isset($options['progress']) && \is_callable($options['progress'])) {
            $options['progress'] = new ProgressCallback($options['progress']);
        }
        try {
            $client = $this->clients->for(OptionMap::toWarmHttp($request, $options));
            $wire = BodyFraming::apply(AcceptEncoding::narrow($request, $options));
        } catch (RequestException|InvalidOptionException $e) {
            return Create::rejectionFor(Outcome::refused($request, $options, $started, $e));
        }

        return PromiseBridge::queue($this->outbox, $client, $wire, $request, $options, $started);
    }

    /**
     * A handler on the same Clients with a queue of its own, for a new Guzzle Client: as each
     * Guzzle Client has its own CurlMultiHandler, a request one Client never waits for is not
     * sent by another's wait (Laravel builds a Guzzle Client per request on one Handler).
     */
    public function forNewClient(): self
    {
        $handler = clone $this;
        $handler->outbox = Outbox::forHandler();

        return $handler;
    }

    /** A Client for callers who want WarmHttp directly, with this handler's base options. */
    public function client(): Client
    {
        return $this->clients->for([]);
    }
}
