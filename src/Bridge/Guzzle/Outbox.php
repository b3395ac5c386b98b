<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use WarmHttp\Internal\CurlPool;

/**
 * The requests a Handler was given and has not handed to the pool yet, as Guzzle's
 * CurlMultiHandler keeps them: they go out when one of the Handler's promises is waited on
 * (all of them then, so that they run concurrently), a `delay`ed one once its time has come.
 * A request nobody ever waits for is never sent, as with Guzzle: dropping the Client and the
 * promise drops it here too, instead of it leaving during some later, unrelated wait.
 *
 * The `delay` timers live in the wait loop: waiting never sleeps past the next due time, and
 * other transfers move meanwhile (Guzzle's CurlHandler usleep()s in the caller instead; four
 * 500 ms delays then took 2 s before the first promise came back).
 *
 * @internal
 */
final class Outbox
{
    /** @var \WeakMap<self, true>|null the Handlers' queues (a sync call's own queue is waited at once) */
    private static ?\WeakMap $handlers = null;

    /** @var array<int, PromiseBridge> not yet started, by object id */
    private array $queued = [];

    private float $nextDue = \INF;

    /** A Handler's queue, which abandonAll() reaches. */
    public static function forHandler(): self
    {
        $outbox = new self();
        self::$handlers ??= new \WeakMap();
        self::$handlers[$outbox] = true;

        return $outbox;
    }

    /**
     * Rejects every request queued and never waited for, in every Handler: the end of a worker
     * request (Octane), where Pool::reset() cancels what was started; a queued request would
     * otherwise stay pending, its promise's callbacks never run within the request that made it.
     */
    public static function abandonAll(string $why): void
    {
        foreach (self::$handlers ?? [] as $outbox => $_) {
            $queued = $outbox->queued;
            $outbox->queued = [];
            $outbox->nextDue = \INF;
            foreach ($queued as $request) {
                $request->abandon($why);
            }
        }
    }

    public function add(PromiseBridge $request): void
    {
        $this->queued[spl_object_id($request)] = $request;
        $this->nextDue = min($this->nextDue, $request->due);
    }

    public function withdraw(PromiseBridge $request): void
    {
        unset($this->queued[spl_object_id($request)]);
    }

    /** Whether a `delay`ed request is still to start, which the wait loop must wake up for. */
    public function hasTimers(): bool
    {
        return $this->queued !== [];
    }

    /** Hands every request whose time has come to the pool, in the order they were given; false when none was due. */
    public function startDue(): bool
    {
        if ($this->queued === [] || microtime(true) < $this->nextDue) {
            return false;
        }
        $now = microtime(true);
        $due = [];
        $this->nextDue = \INF;
        foreach ($this->queued as $id => $request) {
            if ($request->due <= $now) {
                $due[] = $request;
                unset($this->queued[$id]);
            } else {
                $this->nextDue = min($this->nextDue, $request->due);
            }
        }
        foreach ($due as $request) {
            $request->start();
        }

        return $due !== [];
    }

    /**
     * One step of a wait: let the pool work, but wake up for the next due time; with nothing
     * in flight there is nothing to select on, so sleep until then.
     *
     * @return bool false when there is nothing to wait for: nothing in flight, nothing queued
     */
    public function pause(): bool
    {
        $pool = CurlPool::get();
        $wait = $this->queued === [] ? 1.0 : min(1.0, max(0.0, $this->nextDue - microtime(true)));
        if ($pool->inFlight() > 0) {
            $pool->tick($wait);

            return true;
        }
        if ($this->queued === []) {
            return false;
        }
        usleep((int) ceil($wait * 1_000_000));

        return true;
    }
}
