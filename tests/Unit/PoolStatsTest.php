<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit;

use PHPUnit\Framework\TestCase;
use WarmHttp\PoolStats;

final class PoolStatsTest extends TestCase
{
    public function testToArrayNamesEveryCounter(): void
    {
        self::assertSame(
            ['requests' => 1, 'connectionsOpened' => 2, 'connectionsReused' => 3, 'tlsHandshakes' => 4, 'dnsLookups' => 5, 'retriedOnDeadConnection' => 6, 'inFlight' => 7],
            (new PoolStats(1, 2, 3, 4, 5, 6, 7))->toArray(),
        );
    }
}
