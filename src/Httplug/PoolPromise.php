<?php

declare(strict_types=1);

namespace WarmHttp\Httplug;

use Http\Promise\Promise;

/**
 * An HTTPlug promise settled by the warm pool. then() callbacks run as soon as it settles,
 * inside whatever wait drives the pool (this one's, another request's, a sendRequest()), or at
 * once when it has settled already; wait() drives the pool (or suspends the fiber, inside
 * `concurrently()`) until it settles.
 *
 * @internal
 */
final class PoolPromise implements Promise
{
    private string $state = self::PENDING;

    private mixed $value = null;

    private ?\Throwable $reason = null;

    /** @var list<\Closure(): void> */
    private array $handlers = [];

    /** @param \Closure(): void $drive returns once this promise may have settled */
    public function __construct(private \Closure $drive) {}

    public static function rejected(\Throwable $reason): self
    {
        $promise = new self(static function (): void {});
        $promise->reject($reason);

        return $promise;
    }

    public function then(?callable $onFulfilled = null, ?callable $onRejected = null): self
    {
        $next = new self(fn() => $this->wait(false));
        $this->whenSettled(fn() => $this->pass($next, $onFulfilled, $onRejected));

        return $next;
    }

    public function getState(): string
    {
        return $this->state;
    }

    /** @throws \Throwable the rejection reason, when $unwrap */
    public function wait($unwrap = true): mixed
    {
        while ($this->state === self::PENDING) {
            $drive = $this->drive;
            $drive();
            if ($this->state === self::PENDING && $drive === $this->drive) {
                throw new \LogicException('An HTTPlug promise of WarmHttp was waited for, but nothing it depends on can settle it any more.');
            }
        }
        if (!$unwrap) {
            return null;
        }
        if ($this->reason !== null) {
            throw $this->reason;
        }

        return $this->value;
    }

    /** A value that is itself a promise is followed: this one settles as that one does. */
    public function resolve(mixed $value): void
    {
        if ($this->state !== self::PENDING) {
            return;
        }
        if ($value instanceof Promise) {
            $this->drive = static function () use ($value): void {
                $value->wait(false);
            };
            $value->then(fn(mixed $v) => $this->resolve($v), fn(\Throwable $e) => $this->reject($e));

            return;
        }
        $this->settle(self::FULFILLED, $value, null);
    }

    public function reject(\Throwable $reason): void
    {
        if ($this->state === self::PENDING) {
            $this->settle(self::REJECTED, null, $reason);
        }
    }

    private function settle(string $state, mixed $value, ?\Throwable $reason): void
    {
        $this->state = $state;
        $this->value = $value;
        $this->reason = $reason;
        $handlers = $this->handlers;
        $this->handlers = [];
        foreach ($handlers as $handler) {
            $handler();
        }
    }

    /** @param \Closure(): void $handler */
    private function whenSettled(\Closure $handler): void
    {
        if ($this->state === self::PENDING) {
            $this->handlers[] = $handler;

            return;
        }
        $handler();
    }

    /** A callback's return value fulfills $next, what it throws rejects it (Promises/A+ 2.2.7). */
    private function pass(self $next, ?callable $onFulfilled, ?callable $onRejected): void
    {
        $callback = $this->state === self::FULFILLED ? $onFulfilled : $onRejected;
        if ($callback === null) {
            $this->reason !== null ? $next->reject($this->reason) : $next->resolve($this->value);

            return;
        }
        try {
            $next->resolve($callback($this->reason ?? $this->value));
        } catch (\Throwable $e) {
            $next->reject($e);
        }
    }
}
