<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Group;

use WarmHttp\Bench\Group;

/**
 * The bench's table of contents, in run order. To add a measurement (the relay's dispatch
 * latency, throughput, FPM), write a Group returning Rows and append it here.
 *
 * @internal bench tooling
 */
final class Groups
{
    /** @return list<Group> */
    public static function defaults(): array
    {
        return [
            new SequentialGroup(),
            new TwoOriginsGroup(),
            new ParallelGroup(),
            new ConcurrentlyGroup(),
            new CpuGroup(),
        ];
    }
}
