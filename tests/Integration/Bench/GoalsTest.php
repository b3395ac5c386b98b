<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bench;

use PHPUnit\Framework\TestCase;
use WarmHttp\Bench\Goal;
use WarmHttp\Bench\Goals;
use WarmHttp\Bench\Output\SvgChart;
use WarmHttp\Bench\Report;
use WarmHttp\Bench\Row;

/**
 * Goals and chart colours follow the groups a run measured: a group left out (--only, a
 * preset) has no goals, and each group's bars are green within that group's own goal.
 */
final class GoalsTest extends TestCase
{
    private const GREEN = '#2e7d32';
    private const AMBER = '#f9a825';
    private const RED = '#c62828';

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

    public function testChartColoursEachGroupByItsOwnGoal(): void
    {
        $rows = [
            self::row('seq', 'warmhttp', 1.04),
            self::row('seq', 'guzzle-one-client', 1.07),
            self::row('par', 'warmhttp-sendall-h2', 1.14),
            self::row('par', 'curl-multi-plain', 1.6),
            self::row('two-origins', 'warmhttp-sendall-h2', 1.14),
            self::row('relay', 'warmhttp-sync-first-call', 1.01),
            self::row('relay', 'cold-first-call', 1.05),
        ];
        $svg = SvgChart::render(new Report([], [], $rows, []));

        self::assertSame(
            ['seq/warmhttp' => self::GREEN, 'seq/guzzle-one-client' => self::AMBER, 'par/warmhttp-sendall-h2' => self::GREEN, 'par/curl-multi-plain' => self::RED,
                'two-origins/warmhttp-sendall-h2' => self::AMBER, 'relay/warmhttp-sync-first-call' => self::GREEN, 'relay/cold-first-call' => self::AMBER],
            self::barColours($svg),
        );
    }

    /** A row $ratio × its 20 ms limit. */
    private static function row(string $group, string $name, float $ratio): Row
    {
        $median = 20.0 * $ratio;

        return new Row($group, $name, $group . '/' . $name, Row::OK, min: $median, median: $median, max: $median, requests: 1, connections: 1, limit: 20.0, limitFormula: '1 × RTT');
    }

    /** @return array<string, string> label => fill of the bar after it */
    private static function barColours(string $svg): array
    {
        preg_match_all('~class="label[^"]*">([^<]+)</text>\n<rect [^>]*fill="(#[0-9a-f]{6})"~', $svg, $matches);

        return array_combine($matches[1], $matches[2]);
    }
}
