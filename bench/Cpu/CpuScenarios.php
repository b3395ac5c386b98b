<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Cpu;

use WarmHttp\Bench\BenchException;
use WarmHttp\Bench\Scenario;
use WarmHttp\Bench\Strategy;
use WarmHttp\Internal\ContentCodings;

/**
 * The rows of the CPU group, in one place: the group times them in this process and counts
 * their instructions in a child (measured.php) that builds them by name from here.
 *
 * @internal bench tooling
 */
final class CpuScenarios
{
    /**
     * The raw row asks for what WarmHttp asks for by default (Accept-Encoding: gzip, decoded by
     * libcurl as it arrives): on the rig's uncompressed answer that costs libcurl ~5-7 k
     * instructions per request (callgrind), which a raw row without it would not pay.
     *
     * @return list<Scenario> the raw reused curl handle first: the others are compared to it
     */
    public static function all(): array
    {
        return [
            new Strategy\CurlReused(ContentCodings::DEFAULT),
            new Strategy\CurlMultiCache(),
            new Strategy\WarmHttpSequential(),
            Strategy\Guzzle::oneClient(),
            Strategy\Symfony::sequential(),
        ];
    }

    public static function named(string $name): Scenario
    {
        foreach (self::all() as $scenario) {
            if ($scenario->name() === $name) {
                return $scenario;
            }
        }

        throw new BenchException(\sprintf('No CPU row named "%s".', $name));
    }
}
