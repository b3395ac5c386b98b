<?php

declare(strict_types=1);

namespace WarmHttp\Bench;

/**
 * One row to measure: a scenario doing the work of a shape against a path of the origin.
 *
 * @internal bench tooling
 */
final readonly class Trial
{
    public function __construct(
        public Scenario $scenario,
        public Shape $shape,
        public string $path,
        public Network $network,
    ) {}
}
