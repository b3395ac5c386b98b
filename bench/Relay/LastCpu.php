<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use Symfony\Component\Process\ExecutableFinder;

/**
 * The CPU a process under test is confined to for "on one core" rows (taskset -c): the
 * highest-numbered one, so the rows that confine something all pick the same CPU.
 *
 * @internal benchmark tooling
 */
final class LastCpu
{
    /** @return int|null null with one CPU or without taskset */
    public static function number(): ?int
    {
        if ((new ExecutableFinder())->find('taskset') === null) {
            return null;
        }
        $cpus = (int) shell_exec('nproc 2>/dev/null');

        return $cpus >= 2 ? $cpus - 1 : null;
    }
}
