<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Cpu;

use WarmHttp\Bench\BenchException;
use WarmHttp\Bench\Scenario;
use WarmHttp\Bench\Strategy;

/**
 * The rows of the CPU group, in one place: the group times them in this process and counts
 * their instructions in a child (measured.php) that builds them by name from here.
 *
 * @internal bench tooling
 */
final class CpuScenarios
{
    /**
     * The raw row sends the bytes a default WarmHttp Client sends (Accept-Encoding: gzip,
     * decoded by libcurl as it arrives, and the User-Agent line): on the rig's uncompressed
     * answer libcurl pays ~5-7 k and ~4.8 k instructions per request for them (callgrind),
     * which a bare handle would not pay.
     *
     * @return list<Scenario> the raw reused curl handle first: the others are compared to it
     */
    public static function all(): array
    {
        return [
            Strategy\CurlReused::sameRequestAsWarmHttp(),
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
