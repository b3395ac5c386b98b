<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bench;

use WarmHttp\Bench\Cpu\Callgrind;
use WarmHttp\Bench\Goal;
use WarmHttp\Bench\Goals;
use WarmHttp\Bench\Row;
use WarmHttp\Bench\Tls;
use WarmHttp\Tests\Integration\RigTestCase;

/**
 * The CPU group's instructions per request: counted by callgrind on a real row, and the goal
 * judged on them.
 */
final class CpuInstructionsTest extends RigTestCase
{
    public function testCountsTheInstructionsOfOneWarmRequestOfARow(): void
    {
        $missing = Callgrind::missing();
        if ($missing !== null) {
            self::markTestSkipped($missing);
        }
        $perRequest = (new Callgrind(100))->perRequest('warmhttp', self::nginxUrl('h2', '/fast'), new Tls(self::rig()->caFile()));

        // libcurl, OpenSSL and nghttp2 alone cost ~95 k per warm HTTP/2 request; start-up
        // (~170 M instructions) must not be in it.
        self::assertGreaterThan(80_000, $perRequest);
        self::assertLessThan(400_000, $perRequest);
    }

    public function testSizesFollowTheCpuRequests(): void
    {
        self::assertSame(300, Callgrind::forRequests(300)->requests);
        self::assertSame(100, Callgrind::forRequests(50)->requests);
        self::assertSame(2000, Callgrind::forRequests(5000)->requests);
        self::assertSame(8_321_312, Callgrind::totalOf("version: 1\ncreator: callgrind-3.19.0\nevents: Ir\nsummary: 8321312\n"));
    }

    public function testTheInstructionsGoalIsJudgedOnTheCounts(): void
    {
        $met = self::goal(Goals::check([self::row('curl-reused', 100.0, 100.0), self::row('warmhttp', 119.0, 130.0)]), 'instructions');
        self::assertTrue($met->met);
        self::assertSame('1.19× (119.0 k vs 100.0 k instructions per request)', $met->measured);

        $missed = self::goal(Goals::check([self::row('curl-reused', 100.0, 100.0), self::row('warmhttp', 121.0, 110.0)]), 'instructions');
        self::assertFalse($missed->met);
        $time = self::goal(Goals::check([self::row('curl-reused', 100.0, 100.0), self::row('warmhttp', 121.0, 110.0)]), 'CPU time');
        self::assertTrue($time->met, '1.10× in CPU time');

        $uncounted = new Row('cpu', 'warmhttp', 'w', Row::OK, unit: 'µs', median: 1.0, extra: ['note' => 'instructions not counted: valgrind is not installed (apt-get install valgrind)']);
        $notCounted = self::goal(Goals::check([self::row('curl-reused', 100.0, 100.0), $uncounted]), 'instructions');
        self::assertNull($notCounted->met);
        self::assertStringContainsString('valgrind is not installed', $notCounted->measured);
    }

    /** @param list<Goal> $goals */
    private static function goal(array $goals, string $about): Goal
    {
        foreach ($goals as $goal) {
            if (str_contains($goal->goal, $about)) {
                return $goal;
            }
        }
        self::fail('No goal about ' . $about);
    }

    private static function row(string $name, float $kIr, float $cpuUs): Row
    {
        return new Row('cpu', $name, $name, Row::OK, unit: 'µs', min: $cpuUs, median: $cpuUs, max: $cpuUs, requests: 1, extra: ['kIrPerRequest' => $kIr]);
    }
}
