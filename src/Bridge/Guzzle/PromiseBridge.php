<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use GuzzleHttp\Promise\Promise;
use GuzzleHttp\Promise\PromiseInterface;
use GuzzleHttp\Promise\Utils;
use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Client;
use WarmHttp\Exception\InvalidOptionException;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Exception\RequestException;
use WarmHttp\PendingResponse;

/**
 * One request given to the Handler, and the Guzzle promise for it. Queued in the Handler's
 * Outbox until a wait starts it; then settled from the pool's own settle event, not from
 * wait(): waiting on one promise drives the whole pool, and every other request that finishes
 * meanwhile settles its promise too (Guzzle's CurlMultiHandler does the same).
 *
 * @internal
 */
final class PromiseBridge
{
    private ?PendingResponse $pending = null;
    private bool $cancelled = false;
    private readonly Promise $promise;

    /**
     * @param ?Outbox              $outbox  null: a sync call, started at once
     * @param array<string, mixed> $options Guzzle request options
     */
    private function __construct(
        private readonly ?Outbox $outbox,
        private readonly Client $client,
        private readonly RequestInterface $wire,
        private readonly RequestInterface $request,
        private readonly array $options,
        private readonly float $started,
        public readonly float $due,
    ) {
        $this->promise = new Promise($this->wait(...), $this->cancel(...));
    }

    /**
     * @param Outbox               $queue   the Handler's queue, for async calls
     * @param RequestInterface     $wire    what goes to the pool (AcceptEncoding may have narrowed it)
     * @param array<string, mixed> $options Guzzle request options
     */
    public static function queue(Outbox $queue, Client $client, RequestInterface $wire, RequestInterface $request, array $options, float $started): PromiseInterface
    {
        $due = $started + self::delaySeconds($options);
        if (($options['synchronous'] ?? false) === true) {
            // Guzzle sends sync calls on a handler of their own (CurlHandler), at once: never
            // with what async calls left unwaited in the queue.
            if ($due === $started) {
                $bridge = new self(null, $client, $wire, $request, $options, $started, $due);
                $bridge->start();

                return $bridge->promise;
            }
            $queue = new Outbox();
        }
        $bridge = new self($queue, $client, $wire, $request, $options, $started, $due);
        $queue->add($bridge);

        return $bridge->promise;
    }

    /** Hands the request to the pool (the Outbox calls this when it is due and someone waits). */
    public function start(): void
    {
        try {
            $this->pending = $this->client->sendAsync($this->wire);
        } catch (RequestException|InvalidOptionException $e) {
            $this->promise->reject(Outcome::refused($this->request, $this->options, $this->started, $e));

            return;
        }
        $this->pending->onSettle(function (ResponseInterface|ClientExceptionInterface $outcome): void {
            if ($this->cancelled) {
                return; // Guzzle rejects a cancelled promise itself, with a CancellationException
            }
            $result = Outcome::settle($this->request, $this->options, $this->started, $outcome);
            $result instanceof ResponseInterface ? $this->promise->resolve($result) : $this->promise->reject($result);
        });
    }

    /** Settles a request that was never started, as the pool settles one it cancels. */
    public function abandon(string $why): void
    {
        if ($this->promise->getState() !== PromiseInterface::PENDING) {
            return;
        }
        $result = Outcome::settle($this->request, $this->options, $this->started, new NetworkException($this->wire, $why));
        $result instanceof ResponseInterface ? $this->promise->resolve($result) : $this->promise->reject($result);
    }

    /**
     * Guzzle's CurlMultiHandler loop: each round runs Guzzle's task queue (a settled promise's
     * callbacks may send more, as a retry does), starts what is due, lets the pool work until
     * the next due time. Inside a fiber, the pool's own wait, which suspends a concurrently()
     * task instead of blocking its siblings.
     */
    private function wait(): void
    {
        if ($this->outbox === null) {
            if ($this->pending !== null) {
                self::settleIn($this->pending);
            }

            return;
        }
        $queue = Utils::queue();
        while ($this->promise->getState() === PromiseInterface::PENDING) {
            $queue->run();
            $this->outbox->startDue();
            if ($this->pending !== null && \Fiber::getCurrent() !== null && !$this->outbox->hasTimers()) {
                self::settleIn($this->pending);

                return;
            }
            if (!$this->outbox->pause()) {
                return; // nothing in flight, nothing due: Guzzle reports the promise as never resolved
            }
        }
    }

    private static function settleIn(PendingResponse $pending): void
    {
        try {
            $pending->wait();
        } catch (ClientExceptionInterface) {
            // The rejection has already reached the promise through onSettle.
        }
    }

    /** As Guzzle's CurlMultiHandler: the transfer stops, no on_stats; Guzzle then rejects with CancellationException. */
    private function cancel(): void
    {
        $this->cancelled = true;
        $this->outbox?->withdraw($this);
        $this->pending?->cancel();
    }

    /** @param array<string, mixed> $options */
    private static function delaySeconds(array $options): float
    {
        $delay = $options['delay'] ?? 0;

        return is_numeric($delay) && $delay > 0 ? (float) $delay / 1000 : 0.0;
    }
}
