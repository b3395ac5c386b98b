<?php

declare(strict_types=1);

namespace WarmHttp;

use WarmHttp\Internal\Scheduler;

/**
 * Runs each task in a fiber. Plain synchronous sendRequest() calls inside the tasks, even deep
 * inside an SDK handed a WarmHttp Client, overlap instead of running one after another.
 *
 * @param callable(): mixed ...$tasks
 *
 * @return array<array-key, mixed> each task's return value, keyed like the tasks
 *
 * @throws \Throwable the first failing task's exception (in task order), after all tasks ended
 */
function concurrently(callable ...$tasks): array
{
    return Scheduler::run($tasks);
}
