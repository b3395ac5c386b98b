<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Laravel;

use GuzzleHttp\Promise\Create;
use GuzzleHttp\Promise\PromiseInterface;
use GuzzleHttp\Psr7\Response;
use Illuminate\Http\Client\PendingRequest;
use Psr\Http\Message\RequestInterface;
use WarmHttp\Client;

/**
 * `Http::dispatch('POST', $url, $data)`: fire-and-forget through the relay. The request is
 * built by Laravel exactly as ->post($url, $data) would build it (base URL, headers, auth,
 * body format, middleware, RequestSending event, Http::fake), then handed to
 * WarmHttp\Client::dispatch() instead of sent: returns once the relay has spooled it.
 *
 * @internal registered by WarmHttpServiceProvider
 */
final class DispatchMacro
{
    public static function register(): void
    {
        if (PendingRequest::hasMacro('dispatch')) {
            return;
        }
        PendingRequest::macro('dispatch', function (string $method, string $url, array $data = []): void {
            $method = strtoupper($method);
            $options = match (true) {
                $method === 'GET' || $method === 'HEAD' => ['query' => $data],
                $data === [] => [],
                default => [$this->bodyFormat => $data],
            };
            DispatchMacro::send($this, $method, $url, $options);
        });
    }

    /** @param array<string, mixed> $options Laravel request options */
    public static function send(PendingRequest $pending, string $method, string $url, array $options): void
    {
        $client = app(Client::class);
        $pending->setHandler(static function (RequestInterface $request) use ($client): PromiseInterface {
            $client->dispatch($request);

            // What the relay answered: accepted for delivery.
            return Create::promiseFor(new Response(202));
        })->send($method, $url, $options);
    }
}
