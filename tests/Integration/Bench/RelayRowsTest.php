<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bench;

use PHPUnit\Framework\TestCase;
use Symfony\Component\Console\Output\BufferedOutput;
use WarmHttp\Bench\BenchConfig;
use WarmHttp\Bench\BenchContext;
use WarmHttp\Bench\Goal;
use WarmHttp\Bench\Group\RelayGroup;
use WarmHttp\Bench\Output\Cells;
use WarmHttp\Bench\Output\SvgChart;
use WarmHttp\Bench\RelayGoals;
use WarmHttp\Bench\Report;
use WarmHttp\Bench\Row;
use WarmHttp\Bench\Target\UrlTargets;
use WarmHttp\Bench\Tls;

/**
 * The relay rows' reporting: goals judged from the numbers the rows carry, units and notes in
 * the table and chart, and skipping (with the reason) where the relay cannot run. The
 * measurements themselves run in BenchCommandTest's smoke run.
 */
final class RelayRowsTest extends TestCase
{
    public function testGoalsAreMetOrMissedOnTheRowsNumbers(): void
    {
        $met = RelayGoals::check(self::byId([
            self::row('warmhttp-dispatch', 'µs/call', 40.0, ['p99' => 120.0]),
            self::row('warmhttp-throughput', 'deliveries/s', 6200.0, ['lost' => 0, 'runs' => 3, 'duplicates' => 0, 'relayCores' => 0.97]),
            self::row('warmhttp-sync-first-call', 'ms', 20.2, ['warmFloorMs' => 20.1], 20.0),
        ]));
        self::assertSame([true, true, true, null], array_map(static fn(Goal $g): ?bool => $g->met, $met), 'no hop floor measured: that goal is not judged');
        self::assertStringContainsString('p99 120 µs', $met[0]->measured);
        self::assertStringContainsString('relay adds 0.10 ms', $met[2]->measured);

        $split = RelayGoals::check(self::byId([self::row('warmhttp-sync-first-call', 'ms', 21.2, ['warmFloorMs' => 20.5, 'relayOnlyP50' => 20.9, 'hopFloorMs' => 20.7], 20.0)]))[2];
        self::assertFalse($split->met);
        self::assertStringContainsString('the relay 0.40 ms (a hand-written request on the kept socket: 20.90 ms) and the app 0.30 ms', $split->measured);
        self::assertStringContainsString('the hop floor (the same bytes to a minimal forwarder process) is 20.70 ms, +0.20 ms over warm curl: the relay adds 0.20 ms over it, the app 0.30 ms', $split->measured);

        // A machine where the hop alone costs more than the budget: judged against that floor too.
        [, , $overWarm, $overHop] = RelayGoals::check(self::byId([self::row('warmhttp-sync-first-call', 'ms', 21.6, ['warmFloorMs' => 20.8, 'relayOnlyP50' => 21.45, 'hopFloorMs' => 21.4], 20.0)]));
        self::assertSame([false, true], [$overWarm->met, $overHop->met]);
        self::assertStringContainsString('21.60 ms vs hop floor 21.40 ms + 0.3 ms = 21.70 ms (-0.10 ms to the goal); the hop floor itself is +0.60 ms over warm curl 20.80 ms', $overHop->measured);
        self::assertFalse(RelayGoals::check(self::byId([self::row('warmhttp-sync-first-call', 'ms', 21.8, ['warmFloorMs' => 20.8, 'hopFloorMs' => 21.4], 20.0)]))[3]->met);

        $missed = RelayGoals::check(self::byId([
            self::row('warmhttp-dispatch', 'µs/call', 40.0, ['p99' => 150.0]),
            self::row('warmhttp-throughput', 'deliveries/s', 6200.0, ['lost' => 1, 'runs' => 3, 'duplicates' => 0, 'relayCores' => 0.97]),
            self::row('warmhttp-sync-first-call', 'ms', 20.4, [], 20.0),
        ]));
        self::assertSame([false, false, false, null], array_map(static fn(Goal $g): ?bool => $g->met, $missed));
        self::assertSame([null, null, null, null], array_map(static fn(Goal $g): ?bool => $g->met, RelayGoals::check([])));
    }

    public function testTwoCoresAreNotOneCore(): void
    {
        $goals = RelayGoals::check(self::byId([self::row('warmhttp-throughput', 'deliveries/s', 9000.0, ['lost' => 0, 'runs' => 1, 'duplicates' => 0, 'relayCores' => 1.8, 'relayCoresByProcess' => '0.30 + 1.50'])]));

        self::assertFalse($goals[1]->met);
        self::assertStringContainsString('relay CPU 1.80 cores (0.30 + 1.50)', $goals[1]->measured);
    }

    public function testTableAndChartShowEachUnitWithItsNote(): void
    {
        $rows = [
            self::row('warmhttp-dispatch', 'µs/call', 41.3, ['note' => 'p99 97 µs (n=2000)']),
            self::row('warmhttp-throughput', 'deliveries/s', 5210.0, ['note' => 'lost 0 of 3 × 10000']),
            self::row('warmhttp-sync-first-call', 'ms', 21.0, ['note' => 'warm curl through the rig: 20.6 ms'], 20.0),
            self::row('fpm-blocking', 'req/min', 480.0, []),
        ];

        self::assertSame(['41.3 µs/call', 'p99 97 µs (n=2000)'], [Cells::row($rows[0])[1], Cells::row($rows[0])[6]]);
        self::assertSame('5210 deliveries/s', Cells::row($rows[1])[1]);
        self::assertSame('1.05× · warm curl through the rig: 20.6 ms', Cells::row($rows[2])[6]);
        $svg = SvgChart::render(new Report([], ['relay' => 'The relay'], $rows, []));
        self::assertStringContainsString('5210 deliveries/s · lost 0 of 3 × 10000', $svg);
        self::assertStringContainsString('480 req/min', $svg);
        self::assertStringContainsString('21 ms · 1.05× its limit · 0 conn · warm curl', $svg);
    }

    public function testWithUrlEveryRelayRowIsSkippedWithTheReason(): void
    {
        $context = new BenchContext(new BenchConfig(only: ['relay/*']), new UrlTargets('https://api.example.invalid/health', new Tls(null)), new BufferedOutput());

        $rows = (new RelayGroup())->run($context);

        self::assertCount(16, $rows, 'the relay\'s 10 rows, seeds/004\'s Node forwarder\'s 3 and the Redis spool\'s 3');
        foreach ($rows as $row) {
            self::assertSame(Row::SKIPPED, $row->status);
            self::assertStringContainsString('rig only', (string) $row->reason);
        }
    }

    /**
     * @param array<string, float|int|string> $extra
     */
    private static function row(string $name, string $unit, float $median, array $extra, ?float $limit = null): Row
    {
        return new Row('relay', $name, $name, Row::OK, unit: $unit, min: $median, median: $median, max: $median, requests: 10, connections: $limit === null ? null : 0, limit: $limit, limitFormula: $limit === null ? null : '1 × RTT', extra: $extra);
    }

    /**
     * @param list<Row> $rows
     *
     * @return array<string, Row>
     */
    private static function byId(array $rows): array
    {
        return array_combine(array_map(static fn(Row $r): string => $r->id(), $rows), $rows);
    }
}
