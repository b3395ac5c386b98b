<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Internal;

use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\PoolCounters;
use WarmHttp\PoolStats;

final class PoolCountersTest extends TestCase
{
    public function testCountsAReusedConnection(): void
    {
        $counters = new PoolCounters();
        $counters->record('api.example.com', ['num_connects' => 0, 'appconnect_time_us' => 0]);

        self::assertEquals(new PoolStats(1, 0, 1, 0, 0, 0, 3), $counters->snapshot(3));
    }

    public function testAddsTheReusedConnectionsThePoolCountedItself(): void
    {
        $counters = new PoolCounters();
        $counters->record('api.example.com', ['num_connects' => 1, 'appconnect_time_us' => 5000]);

        self::assertEquals(new PoolStats(6, 1, 5, 1, 1, 0, 0), $counters->snapshot(0, 5));
    }

    public function testCountsANewTlsConnectionAndItsLookupOncePerCacheLifetime(): void
    {
        $counters = new PoolCounters();
        $counters->record('api.example.com', ['num_connects' => 1, 'appconnect_time_us' => 5000]);
        $counters->record('api.example.com', ['num_connects' => 1, 'appconnect_time_us' => 5000]);
        $counters->record('other.example.com', ['num_connects' => 1, 'appconnect_time_us' => 0]);

        self::assertEquals(new PoolStats(3, 3, 0, 2, 2, 0, 0), $counters->snapshot(0));
    }

    public function testAnIpLiteralNeedsNoLookup(): void
    {
        $counters = new PoolCounters();
        $counters->record('203.0.113.7', ['num_connects' => 1, 'appconnect_time_us' => 0]);
        $counters->record('[2001:db8::1]', ['num_connects' => 1, 'appconnect_time_us' => 0]);

        self::assertSame(0, $counters->snapshot(0)->dnsLookups);
    }

    public function testCountsRetries(): void
    {
        $counters = new PoolCounters();
        $counters->retried();
        $counters->retried();

        self::assertSame(2, $counters->snapshot(0)->retriedOnDeadConnection);
    }
}
