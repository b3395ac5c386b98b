<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bench;

use PHPUnit\Framework\TestCase;
use WarmHttp\Bench\Goal;
use WarmHttp\Bench\Output\ChartScale;
use WarmHttp\Bench\Output\SvgChart;
use WarmHttp\Bench\Report;
use WarmHttp\Bench\Row;

/**
 * The chart reads right at a glance: absolute values on one scale per panel (a slower row is a
 * longer bar, whatever its limit), each row's limit marked where it is, every goal marked met
 * or missed, one unit per panel, and the RTT and machine stated.
 */
final class ChartTest extends TestCase
{
    public function testASlowerRowIsALongerBarWhateverItsLimit(): void
    {
        // The case that misled: 1,121 ms at 1.02× its limit against 126 ms at 1.15× its own.
        $svg = self::svg([self::row('par', 'warmhttp-h11', 1121.0, 1100.0), self::row('par', 'warmhttp-h2', 126.0, 110.0)]);

        $bars = self::bars($svg);
        self::assertGreaterThan(8 * $bars['par/warmhttp-h2'], $bars['par/warmhttp-h11']);
        self::assertEqualsWithDelta(1121 / 126, $bars['par/warmhttp-h11'] / $bars['par/warmhttp-h2'], 0.2, 'bars from zero, proportional');
    }

    public function testEachRowsLimitIsMarkedAtItsValueOnTheSameScale(): void
    {
        $svg = self::svg([self::row('seq', 'warmhttp', 1096.0, 1040.0)]);

        preg_match('~<rect x="(\d+)" y="\d+" width="([\d.]+)"[^>]*fill="#1565c0"/>\n<line~', $svg, $bar);
        preg_match_all('~<line x1="([\d.]+)" x2="\1" y1="\d+" y2="\d+" class="limit"/>~', $svg, $limits);
        self::assertCount(2, $limits[1], 'the legend\'s mark and the row\'s');
        [$left, $width] = [(float) ($bar[1] ?? 0), (float) ($bar[2] ?? 1)];
        self::assertEqualsWithDelta(1040 / 1096, ((float) $limits[1][1] - $left) / $width, 0.01);
    }

    public function testEveryGoalIsMarkedMetOrMissed(): void
    {
        $goals = [new Goal('WarmHttp sequential within 1.05× of the physical limit', '1.053×', false), new Goal('concurrently() against the same work sequential', '8.3× faster', true), new Goal('relay_sync first call', 'not measured', null)];

        $svg = SvgChart::render(new Report([], [], [self::row('seq', 'warmhttp', 1096.0, 1040.0)], $goals));

        self::assertStringContainsString('Goals: 1 of 3 met', $svg);
        self::assertMatchesRegularExpression('~fill="#c62828"/>\n<text [^>]+>MISSED</text>\n<text [^>]+>WarmHttp sequential within 1.05×~u', $svg);
        self::assertMatchesRegularExpression('~fill="#2e7d32"/>\n<text [^>]+>MET</text>\n<text [^>]+>concurrently\(\)~', $svg);
        self::assertStringContainsString('>NOT RUN</text>', $svg);
    }

    public function testTheRttAndTheMachineAreStated(): void
    {
        $meta = ['date' => '2026-11-21T11:07:54+00:00', 'machine' => '2 cores, x86_64, PHP 8.2.35', 'commit' => 'abc1234', 'target' => 'rig: nginx …', 'network' => ['rttMs' => 20, 'serverMs' => 0, 'handshakeRtts' => 2], 'loadBefore' => '0.54 0.59 0.55', 'loadAfter' => '1.52 0.72 0.60'];

        $svg = SvgChart::render(new Report($meta, [], [self::row('seq', 'warmhttp', 1096.0, 1040.0)], []));

        self::assertStringContainsString('Network: 20 ms round trip (RTT), added by a latency proxy on loopback', $svg);
        self::assertStringContainsString('a new connection costs 2 RTT more', $svg);
        self::assertStringContainsString('Machine: 2 cores, x86_64, PHP 8.2.35 · load average 0.54 before, 1.52 after', $svg);
        self::assertStringContainsString('Run: 2026-11-21 11:07 UTC · commit abc1234', $svg);
    }

    public function testEachUnitGetsItsOwnPanelAndSaysWhichWayIsBetter(): void
    {
        $rows = [
            new Row('relay', 'warmhttp-dispatch', 'dispatch()', Row::OK, unit: 'µs/call', min: 80.0, median: 135.0, max: 3680.0, extra: ['p99' => 287.0]),
            new Row('relay', 'warmhttp-throughput', 'deliveries', Row::OK, unit: 'deliveries/s', min: 3941.0, median: 4223.0, max: 4327.0),
        ];

        $svg = SvgChart::render(new Report([], ['relay' => 'The relay'], $rows, []));

        self::assertStringContainsString('µs the caller is blocked per call, median, lower is better', $svg);
        self::assertStringContainsString('deliveries per second, higher is better', $svg);
        self::assertStringContainsString('>5000</text>', $svg, 'the deliveries panel has its own ticks');
        self::assertSame([80.0, 287.0], ChartScale::whisker($rows[0]), 'a latency row\'s whisker ends at p99, not at one call in thousands');
    }

    public function testTheChartIsDrawnAgainFromTheJson(): void
    {
        $report = new Report(['machine' => '2 cores'], ['seq' => '50 sequential GETs'], [self::row('seq', 'warmhttp', 1096.0, 1040.0), Row::fromArray(['group' => 'seq', 'name' => 'x', 'label' => 'x', 'status' => 'skipped', 'reason' => 'needs x'])], [new Goal('g', 'm', true)]);

        $data = json_decode((string) json_encode($report->toArray()), true);
        self::assertIsArray($data);
        $again = Report::fromArray($data);

        self::assertSame(SvgChart::render($report), SvgChart::render($again));
    }

    /** @param list<Row> $rows */
    private static function svg(array $rows): string
    {
        return SvgChart::render(new Report([], [], $rows, []));
    }

    private static function row(string $group, string $name, float $median, float $limit): Row
    {
        return new Row($group, $name, $group . '/' . $name, Row::OK, min: $median, median: $median, max: $median, requests: 1, connections: 1, limit: $limit, limitFormula: '…');
    }

    /** @return array<string, float> label => bar width */
    private static function bars(string $svg): array
    {
        preg_match_all('~class="label[^"]*">([^<]+)</text>\n<rect x="\d+" y="\d+" width="([\d.]+)"~', $svg, $matches);

        return array_combine($matches[1], array_map(floatval(...), $matches[2]));
    }
}
