<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

/**
 * The fibers of one concurrently() call: which wait on what, and what each returned or threw.
 *
 * @internal
 */
final class FiberRun
{
    /** @var array<array-key, \Fiber<mixed, mixed, mixed, mixed>> */
    private array $fibers = [];

    /** @var array<array-key, list<Waitable>> what each suspended fiber waits for */
    private array $waiting = [];

    /** @var array<array-key, mixed> */
    private array $results = [];

    /** @var array<array-key, \Throwable> */
    private array $errors = [];

    /** @var list<array-key> */
    private array $order = [];

    /** @param \Fiber<mixed, mixed, mixed, mixed> $fiber */
    public function add(int|string $key, \Fiber $fiber): void
    {
        $this->order[] = $key;
        $this->fibers[$key] = $fiber;
        $this->step($key, static fn(): mixed => $fiber->start());
    }

    public function finished(): bool
    {
        return $this->fibers === [];
    }

    /** @return bool whether any fiber could be resumed */
    public function resumeReady(): bool
    {
        $resumed = false;
        foreach ($this->waiting as $key => $waitables) {
            if (Scheduler::anyReady($waitables)) {
                $fiber = $this->fibers[$key];
                $this->step($key, static fn(): mixed => $fiber->resume());
                $resumed = true;
            }
        }

        return $resumed;
    }

    /** @return non-empty-list<Waitable> */
    public function waitingOn(): array
    {
        $all = array_merge(...array_values($this->waiting));
        if ($all === []) {
            throw new \LogicException('concurrently(): a task suspended its fiber without waiting for a WarmHttp request; only WarmHttp may suspend the fibers it runs.');
        }

        return $all;
    }

    /**
     * @return array<array-key, mixed> in task order
     *
     * @throws \Throwable the first task's exception, with its original type, once all have ended
     */
    public function results(): array
    {
        $ordered = [];
        foreach ($this->order as $key) {
            if (isset($this->errors[$key])) {
                throw $this->errors[$key];
            }
            $ordered[$key] = $this->results[$key] ?? null;
        }

        return $ordered;
    }

    /** @param \Closure(): mixed $advance */
    private function step(int|string $key, \Closure $advance): void
    {
        unset($this->waiting[$key]);
        try {
            $suspendedWith = $advance();
        } catch (\Throwable $e) {
            $this->errors[$key] = $e;
            unset($this->fibers[$key]);

            return;
        }
        $fiber = $this->fibers[$key];
        if ($fiber->isTerminated()) {
            $this->results[$key] = $fiber->getReturn();
            unset($this->fibers[$key]);

            return;
        }
        $this->waiting[$key] = self::waitables($suspendedWith);
    }

    /** @return list<Waitable> what a suspending fiber passed to Fiber::suspend() */
    private static function waitables(mixed $suspendedWith): array
    {
        if (!\is_array($suspendedWith)) {
            return [];
        }

        return array_values(array_filter($suspendedWith, static fn(mixed $w): bool => $w instanceof Waitable));
    }
}
