<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Group;

use WarmHttp\Bench\BenchContext;
use WarmHttp\Bench\Group;
use WarmHttp\Bench\Shape;
use WarmHttp\Bench\Strategy;

/**
 * N GETs all at once: HTTP/1.1 with per-host caps against HTTP/2 multiplexing, and the peers'
 * parallel APIs. Rows that may use HTTP/2 share the HTTP/2 limit; capped HTTP/1.1 rows have
 * their own (one wave per cap).
 *
 * @internal bench tooling
 */
final class ParallelGroup implements Group
{
    public const CAPS = [2, 6, 20, 100];

    public function name(): string
    {
        return 'par';
    }

    public function title(BenchContext $context): string
    {
        return \sprintf('%d GETs in parallel, one origin, server %s ms', $context->config->parallelRequests, $context->config->parallelServerMs());
    }

    public function run(BenchContext $context): array
    {
        $n = $context->config->parallelRequests;
        $h2 = Shape::parallelH2($n);
        $scenarios = [
            [Strategy\CurlMultiParallel::plain(), $h2],
            [Strategy\CurlMultiParallel::shareH2(), $h2],
            [new Strategy\GuzzleConcurrent(), $h2],
            [Strategy\Symfony::parallel(), $h2],
        ];
        foreach (self::CAPS as $cap) {
            $scenarios[] = [Strategy\WarmHttpSendAll::h1($cap), Shape::parallelH1($n, $cap)];
        }
        $scenarios[] = [Strategy\WarmHttpSendAll::h2(), $h2];

        return $context->measure($this->name(), $scenarios, $context->config->parallelServerMs());
    }
}
