<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Group;

use WarmHttp\Bench\BenchContext;
use WarmHttp\Bench\Group;
use WarmHttp\Bench\Shape;
use WarmHttp\Bench\Strategy;

/**
 * N GETs one after another to one origin, every strategy from a cold start.
 *
 * @internal bench tooling
 */
final class SequentialGroup implements Group
{
    public function name(): string
    {
        return 'seq';
    }

    public function title(BenchContext $context): string
    {
        return \sprintf('%d sequential GETs, one origin, server %s ms', $context->config->requests, $context->config->sequentialServerMs());
    }

    public function run(BenchContext $context): array
    {
        $shape = Shape::sequential($context->config->requests);
        $scenarios = [
            new Strategy\CurlNaive(),
            new Strategy\CurlReused(),
            new Strategy\CurlMultiCache(),
            new Strategy\CurlShare(),
            new Strategy\FileGetContents(),
            Strategy\Guzzle::oneClient(),
            Strategy\Guzzle::clientPerRequest(),
            Strategy\Symfony::sequential(),
            new Strategy\WarmHttpSequential(),
            new Strategy\WarmHttpSequential(5),
        ];

        return $context->measure($this->name(), array_map(static fn($s) => [$s, $shape], $scenarios), $context->config->sequentialServerMs());
    }
}
