<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bench;

use PHPUnit\Framework\TestCase;
use WarmHttp\Bench\Goal;
use WarmHttp\Bench\Goals;
use WarmHttp\Bench\Row;

/**
 * Goals follow the groups a run measured: a group left out (--only, a preset) has no goals.
 * (How the chart shows them: ChartTest.)
 */
final class GoalsTest extends TestCase
{
    public function testOnlyTheGoalsOfGroupsThatRanAreReported(): void
    {
        $goals = Goals::check([self::row('seq', 'warmhttp', 1.04), self::row('par', 'warmhttp-sendall-h2', 1.14)]);

        self::assertSame(
            ['WarmHttp sequential within 1.05× of the physical limit', 'WarmHttp parallel HTTP/2 within 1.3× of the physical limit'],
            array_map(static fn(Goal $g): string => $g->goal, $goals),
        );
        self::assertSame([true, true], array_map(static fn(Goal $g): ?bool => $g->met, $goals));
        self::assertSame([], Goals::check([]));
    }

    public function testAGroupThatRanWithoutTheGoalsRowStillSaysNotMeasured(): void
    {
        $goals = Goals::check([self::row('seq', 'curl-reused', 1.04)]);

        self::assertCount(1, $goals);
        self::assertSame(['not measured', null], [$goals[0]->measured, $goals[0]->met]);
    }

    /** A row $ratio × its 20 ms limit. */
    private static function row(string $group, string $name, float $ratio): Row
    {
        $median = 20.0 * $ratio;

        return new Row($group, $name, $group . '/' . $name, Row::OK, min: $median, median: $median, max: $median, requests: 1, connections: 1, limit: 20.0, limitFormula: '1 × RTT');
    }
}
