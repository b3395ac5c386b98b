<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Metrics;
use WarmHttp\Relay\MetricsFile;
use WarmHttp\Tests\Unit\Support\TempDirectory;

final class MetricsFileTest extends TestCase
{
    public function testTheWorkersCountersInFlightAndSpoolGaugesReachTheFront(): void
    {
        $temp = new TempDirectory();
        $path = MetricsFile::pathFor($temp->path . '/relay');
        $metrics = new Metrics();
        $metrics->add('forwarded_total', 3);
        (new MetricsFile($metrics, $path))->publish(7, force: true, gauges: ['redis_up' => 1, 'oldest_pending_age_seconds' => 0.25]);

        self::assertSame(3, MetricsFile::counters($path)['forwarded_total']);
        self::assertSame(7, MetricsFile::inFlight($path));
        self::assertSame(['redis_up' => 1, 'oldest_pending_age_seconds' => 0.25], MetricsFile::gauges($path));
        $temp->remove();
    }

    public function testNoFileGivesNoGauges(): void
    {
        self::assertSame([], MetricsFile::gauges('/nonexistent/relay.metrics.json'));
    }

    public function testAFileOfAnOlderWorkerWithoutGaugesGivesNone(): void
    {
        $temp = new TempDirectory();
        $path = $temp->path . '/relay.metrics.json';
        file_put_contents($path, '{"counters":{"delivered_total":1},"in_flight":0}');
        self::assertSame([], MetricsFile::gauges($path));
        $temp->remove();
    }
}
