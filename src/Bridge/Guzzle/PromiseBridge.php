<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use GuzzleHttp\Promise\Promise;
use GuzzleHttp\Promise\PromiseInterface;
use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\PendingResponse;

/**
 * A Guzzle promise over a WarmHttp PendingResponse. Settled from the pool's own settle event,
 * not from wait(): waiting on one promise drives the whole pool, and every other request that
 * finishes meanwhile settles its promise too (Guzzle's CurlMultiHandler does the same).
 *
 * @internal
 */
final class PromiseBridge
{
    /** @param array<string, mixed> $options */
    public static function promise(PendingResponse $pending, RequestInterface $request, array $options, float $started): PromiseInterface
    {
        $promise = new Promise(
            static function () use ($pending): void {
                try {
                    $pending->wait();
                } catch (ClientExceptionInterface) {
                    // The rejection has already reached the promise through onSettle.
                }
            },
            static function () use ($pending): void {
                $pending->cancel();
            },
        );
        $pending->onSettle(static function (ResponseInterface|ClientExceptionInterface $outcome) use ($promise, $request, $options, $started): void {
            if ($promise->getState() !== PromiseInterface::PENDING) {
                return; // cancelled: Guzzle has rejected it already
            }
            $result = Outcome::settle($request, $options, $started, $outcome);
            $result instanceof ResponseInterface ? $promise->resolve($result) : $promise->reject($result);
        });

        return $promise;
    }
}
