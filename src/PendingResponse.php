<?php

declare(strict_types=1);

namespace WarmHttp;

use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Internal\CurlPool;
use WarmHttp\Internal\Scheduler;
use WarmHttp\Internal\Transfer;

/**
 * A request in flight, from Client::sendAsync(). Waiting drives the whole pool, so every
 * other pending request moves along too.
 */
final class PendingResponse
{
    /** @internal */
    public function __construct(private readonly Transfer $transfer) {}

    /** @throws ClientExceptionInterface */
    public function wait(): ResponseInterface
    {
        Scheduler::await($this->transfer);

        return $this->transfer->response();
    }

    public function isSettled(): bool
    {
        return $this->transfer->isSettled();
    }

    /** Stops the request and frees its connection; wait() then throws a NetworkException. */
    public function cancel(): void
    {
        if ($this->transfer->isSettled()) {
            return;
        }
        CurlPool::get()->cancel($this->transfer, $this->transfer->exchange->stopped($this->transfer, 'the request was cancelled'));
    }

    /**
     * Calls $listener once with the response or the exception, as soon as the request settles.
     *
     * @param callable(ResponseInterface|ClientExceptionInterface): void $listener
     */
    public function onSettle(callable $listener): void
    {
        $this->transfer->onSettle(static function (Transfer $transfer) use ($listener): void {
            $outcome = $transfer->outcome();
            \assert($outcome !== null);
            $listener($outcome);
        });
    }
}
