<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Bench;

use PHPUnit\Framework\TestCase;
use WarmHttp\Bench\Cpu\PairedRatios;

final class PairedRatiosTest extends TestCase
{
    public function testComparesEachRoundWithTheSameRoundOfTheBase(): void
    {
        // The machine slowed down in rounds 2 and 3: both sides paid, the ratio holds at 1.1.
        $ratios = PairedRatios::of([110.0, 220.0, 330.0, 110.0], [100.0, 200.0, 300.0, 100.0]);

        self::assertEqualsWithDelta(1.1, $ratios->median, 1e-9);
        self::assertEqualsWithDelta(1.1, $ratios->p25, 1e-9);
        self::assertEqualsWithDelta(1.1, $ratios->p75, 1e-9);
        self::assertSame(4, $ratios->rounds);
    }

    public function testOneNoisyRoundDoesNotMoveTheMedian(): void
    {
        $own = [105.0, 104.0, 106.0, 300.0, 105.0];
        $base = [100.0, 100.0, 100.0, 100.0, 100.0];

        $ratios = PairedRatios::of($own, $base);

        self::assertEqualsWithDelta(1.05, $ratios->median, 1e-9);
        self::assertEqualsWithDelta(1.05, $ratios->p25, 1e-9);
        self::assertEqualsWithDelta(1.06, $ratios->p75, 1e-9);
    }

    public function testQuartilesInterpolateBetweenRanks(): void
    {
        $ratios = PairedRatios::of([1.0, 2.0, 3.0, 4.0], [1.0, 1.0, 1.0, 1.0]);

        self::assertEqualsWithDelta(2.5, $ratios->median, 1e-9);
        self::assertEqualsWithDelta(1.75, $ratios->p25, 1e-9);
        self::assertEqualsWithDelta(3.25, $ratios->p75, 1e-9);
        self::assertSame('p25–p75 1.75–3.25× over 4 paired rounds', $ratios->spread());
    }
}
