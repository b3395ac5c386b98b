<?php

declare(strict_types=1);

namespace WarmHttp\Bench;

/**
 * @internal bench tooling
 */
enum ShapeKind: string
{
    case Sequential = 'sequential';
    case ParallelH2 = 'parallel-h2';
    case ParallelH1 = 'parallel-h1';
    case Tasks = 'tasks';
}
