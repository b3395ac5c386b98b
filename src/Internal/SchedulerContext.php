<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

use OpenTelemetry\Context\Context;

/**
 * Carries the caller's OpenTelemetry context into the fibers of concurrently(), when
 * open-telemetry/api is installed. OTel's default storage keeps one context stack per fiber and
 * gives a new fiber none: spans started in a task had no parent, and every read of the context
 * there warned "Access to not initialized OpenTelemetry context in fiber". Attaching the
 * caller's context as the first thing each fiber does is what that warning asks for; with the
 * FFI fiber observer (OTEL_PHP_FIBERS_ENABLED) the fiber already has a fork of it, and the
 * attach adds the same context on top.
 *
 * @internal
 */
final class SchedulerContext
{
    /** Whether the OTel API is installed: looked up once per process. */
    private static ?bool $otel = null;

    private function __construct() {}

    /**
     * The tasks, wrapped to run in the current context; the same tasks when OTel is absent.
     *
     * @param array<array-key, callable(): mixed> $tasks
     *
     * @return array<array-key, callable(): mixed>
     */
    public static function carry(array $tasks): array
    {
        if (!(self::$otel ??= class_exists(Context::class))) {
            return $tasks;
        }
        $context = Context::getCurrent();
        $carried = [];
        foreach ($tasks as $key => $task) {
            $carried[$key] = static function () use ($context, $task): mixed {
                $scope = Context::storage()->attach($context);
                try {
                    return $task();
                } finally {
                    $scope->detach();
                }
            };
        }

        return $carried;
    }
}
