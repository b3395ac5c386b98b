<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Group;

use WarmHttp\Bench\Group;

/**
 * The bench's table of contents, in run order. To add a measurement, write a Group returning
 * Rows and append it here. The relay runs last: its load (wrk, FPM) must not disturb the rest.
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
            new CompressionGroup(),
            new RelayGroup(),
        ];
    }
}
