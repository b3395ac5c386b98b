<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Group;

use WarmHttp\Bench\BenchContext;
use WarmHttp\Bench\Group;
use WarmHttp\Bench\Shape;
use WarmHttp\Bench\Strategy;

/**
 * The same N GETs alternating between two origins (two latency proxies: two ports), the
 * seeds/000 "multiple origins" case; plus all N at once over HTTP/2.
 *
 * @internal bench tooling
 */
final class TwoOriginsGroup implements Group
{
    public function name(): string
    {
        return 'two-origins';
    }

    public function title(BenchContext $context): string
    {
        return \sprintf('%d GETs alternating between two origins, server %s ms', $context->config->requests, $context->config->sequentialServerMs());
    }

    public function run(BenchContext $context): array
    {
        $n = $context->config->requests;
        $sequential = Shape::sequential($n, 2);
        $scenarios = [
            [new Strategy\CurlNaive(), $sequential],
            [new Strategy\CurlReused(), $sequential],
            [Strategy\Guzzle::clientPerRequest(), $sequential],
            [new Strategy\WarmHttpSequential(), $sequential],
            [Strategy\WarmHttpSendAll::h2(), Shape::parallelH2($n, 2)],
        ];
        if (!$context->targets->onRig()) {
            return $context->skipAll($this->name(), array_column($scenarios, 0), 'needs two origins: runs on the rig only, not with --url');
        }

        return $context->measure($this->name(), $scenarios, $context->config->sequentialServerMs());
    }
}
