<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

/**
 * Runs tasks in fibers and lets a plain, blocking-looking sendRequest() inside one of them
 * suspend its fiber instead of the process, so the other tasks' requests proceed meanwhile.
 * A fiber suspends with the transfers it waits for and is resumed when any of them settles.
 * Fibers WarmHttp did not start (Revolt, amphp) are never suspended: there we block.
 *
 * @internal
 */
final class Scheduler
{
    /** @var \WeakMap<\Fiber<mixed, mixed, mixed, mixed>, true>|null */
    private static ?\WeakMap $ours = null;

    public static function await(Transfer $transfer): void
    {
        if (\Fiber::getCurrent() === null) {
            CurlPool::get()->wait($transfer); // outside any fiber: block, as awaitAny() would

            return;
        }
        self::awaitAny([$transfer]);
    }

    /** @param non-empty-list<Waitable> $waitables returns once at least one is ready */
    public static function awaitAny(array $waitables): void
    {
        if (self::inOurFiber()) {
            while (!self::anyReady($waitables)) {
                \Fiber::suspend($waitables);
            }

            return;
        }
        $pool = CurlPool::get();
        while (!self::anyReady($waitables)) {
            $pool->tick();
        }
    }

    /**
     * @param array<array-key, callable(): mixed> $tasks
     *
     * @return array<array-key, mixed>
     */
    public static function run(array $tasks): array
    {
        $run = new FiberRun();
        foreach (SchedulerContext::carry($tasks) as $key => $task) {
            $fiber = new \Fiber($task);
            self::mark($fiber);
            $run->add($key, $fiber);
        }
        while (!$run->finished()) {
            if (!$run->resumeReady()) {
                self::awaitAny($run->waitingOn());
            }
        }

        return $run->results();
    }

    /** @param \Fiber<mixed, mixed, mixed, mixed> $fiber */
    private static function mark(\Fiber $fiber): void
    {
        self::$ours ??= new \WeakMap();
        self::$ours[$fiber] = true;
    }

    private static function inOurFiber(): bool
    {
        $fiber = \Fiber::getCurrent();

        return $fiber !== null && self::$ours !== null && isset(self::$ours[$fiber]);
    }

    /** @param list<Waitable> $waitables */
    public static function anyReady(array $waitables): bool
    {
        foreach ($waitables as $waitable) {
            if ($waitable->isReady()) {
                return true;
            }
        }

        return false;
    }
}
