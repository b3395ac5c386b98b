<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Group;

use WarmHttp\Bench\BenchContext;
use WarmHttp\Bench\Group;
use WarmHttp\Bench\Shape;
use WarmHttp\Bench\Strategy;

/**
 * concurrently() against the same work done one request after another.
 *
 * @internal bench tooling
 */
final class ConcurrentlyGroup implements Group
{
    public function name(): string
    {
        return 'conc';
    }

    public function title(BenchContext $context): string
    {
        $config = $context->config;

        return \sprintf('%d tasks × %d sequential GETs each, server %s ms', $config->tasks, $config->perTask, $config->parallelServerMs());
    }

    public function run(BenchContext $context): array
    {
        $config = $context->config;
        $n = $config->tasks * $config->perTask;

        return $context->measure($this->name(), [
            [new Strategy\WarmHttpConcurrently(max(1, $config->perTask)), Shape::tasks($n, $config->perTask)],
            [new Strategy\WarmHttpSequential(), Shape::sequential($n)],
        ], $config->parallelServerMs());
    }
}
