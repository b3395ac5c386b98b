<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Metrics;

final class MetricsTest extends TestCase
{
    public function testCountsFromZero(): void
    {
        $metrics = new Metrics();
        $metrics->add('accepted_total');
        $metrics->add('accepted_total', 2);

        self::assertSame(3, $metrics->get('accepted_total'));
        self::assertSame(0, $metrics->get('rejected_total'));
        self::assertSame(0, $metrics->get('never_heard_of'));
    }

    public function testRendersCountersAddedToTheWorkersAndGaugesInPrometheusText(): void
    {
        $metrics = new Metrics();
        $metrics->add('delivered_total', 2);

        $text = $metrics->render(['queue_depth' => 7], ['delivered_total' => 3, 'worker_only_total' => 1]);

        self::assertStringContainsString("# TYPE warmhttp_relay_delivered_total counter\nwarmhttp_relay_delivered_total 5\n", $text);
        self::assertStringContainsString("# TYPE warmhttp_relay_worker_only_total counter\nwarmhttp_relay_worker_only_total 1\n", $text);
        self::assertStringContainsString("# TYPE warmhttp_relay_queue_depth gauge\nwarmhttp_relay_queue_depth 7\n", $text);
        self::assertMatchesRegularExpression('/^warmhttp_relay_uptime_seconds [0-9.E-]+$/m', $text);
        self::assertStringEndsWith("\n", $text);
    }
}
