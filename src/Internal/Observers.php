<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use Psr\Log\LoggerInterface;
use WarmHttp\Observability\RequestEvent;
use WarmHttp\Observability\RequestFailed;
use WarmHttp\Observability\RequestFinished;
use WarmHttp\Observability\RequestStarted;
use WarmHttp\Observability\ResponseHeadersReceived;
use WarmHttp\Response;

/**
 * The listeners of one Client (Client::withListener()). A client without listeners has none of
 * this: its requests pay one null check.
 *
 * @internal
 */
final class Observers
{
    /** @param list<\Closure(RequestEvent): void> $listeners */
    private function __construct(private readonly array $listeners, private readonly LoggerInterface $logger) {}

    /** @param callable(RequestEvent): void $listener */
    public static function with(?self $observers, callable $listener, LoggerInterface $logger): self
    {
        return new self([...$observers->listeners ?? [], $listener(...)], $logger);
    }

    /** Reports the start now, the outcome when the transfer settles. */
    public function watch(RequestInterface $request, Transfer $transfer): void
    {
        $startedAt = hrtime(true);
        $this->emit(new RequestStarted($request));
        $transfer->onSettle(function (Transfer $settled) use ($request, $startedAt): void {
            $outcome = $settled->outcome();
            \assert($outcome !== null);
            $this->settled($request, $settled, $outcome, $startedAt);
        });
    }

    public function emit(RequestEvent $event): void
    {
        foreach ($this->listeners as $listener) {
            try {
                $listener($event);
            } catch (\Throwable $e) {
                // A listener runs inside the pool's loop, while other requests settle: its failure
                // must not become theirs, nor the failure of the request it watched.
                $this->logger->error(\sprintf('A WarmHttp listener threw %s on %s: %s', $e::class, $event::class, $e->getMessage()), ['exception' => $e]);
            }
        }
    }

    private function settled(RequestInterface $request, Transfer $transfer, ResponseInterface|ClientExceptionInterface $outcome, int|float $startedAt): void
    {
        if ($outcome instanceof ClientExceptionInterface) {
            $this->emit(new RequestFailed($request, $outcome, (hrtime(true) - $startedAt) / 1e6));

            return;
        }
        $stats = $outcome instanceof Response ? $outcome->stats() : null;
        $this->emit(new ResponseHeadersReceived($request, $outcome, $stats));
        if ($transfer->streamedBody === null) {
            $this->emit(new RequestFinished($request, $outcome, $stats));

            return;
        }
        // A streamed response settles at its head: it is finished when its body has come whole,
        // and failed if the body broke off.
        $transfer->onBodyEnd(function (?ClientExceptionInterface $failure) use ($request, $outcome, $stats, $startedAt): void {
            $this->emit($failure === null
                ? new RequestFinished($request, $outcome, $stats)
                : new RequestFailed($request, $failure, (hrtime(true) - $startedAt) / 1e6));
        });
    }
}
