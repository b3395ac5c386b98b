<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Guard;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Guard\DestinationGuard;
use WarmHttp\Relay\Guard\RefusedDestination;

/** The guard keeps its verdicts: a kept one must judge exactly as a new one does. */
final class DestinationGuardVerdictTest extends TestCase
{
    public function testAKeptRefusalStillRefusesWithTheSameMessage(): void
    {
        $guard = new DestinationGuard(false, []);
        $messages = [];
        for ($i = 0; $i < 3; ++$i) {
            try {
                $guard->checkCanonical('[::ffff:127.0.0.1]');
                self::fail('a loopback address was let through on try ' . $i);
            } catch (RefusedDestination $e) {
                $messages[] = $e->getMessage();
            }
        }

        self::assertCount(1, array_unique($messages));
        self::assertStringContainsString('::ffff:127.0.0.1', $messages[0]);
    }

    public function testAKeptAllowanceGivesTheSameAddress(): void
    {
        $guard = new DestinationGuard(false, []);

        $first = $guard->checkCanonical('93.184.216.34');
        $kept = $guard->checkCanonical('93.184.216.34');

        self::assertSame(['93.184.216.34', '93.184.216.34'], [$first, $kept]);
        self::assertSame('2606:2800:220:1:248:1893:25c8:1946', $guard->checkCanonical('[2606:2800:220:1:248:1893:25c8:1946]'));
    }

    public function testVerdictsAreKeptPerGuardPolicy(): void
    {
        $strict = new DestinationGuard(false, []);
        $open = new DestinationGuard(true, []);

        self::assertSame('10.0.0.1', $open->checkCanonical('10.0.0.1'));
        $this->expectException(RefusedDestination::class);
        $strict->checkCanonical('10.0.0.1');
    }

    public function testManyHostsStayWithinTheKeptBound(): void
    {
        $guard = new DestinationGuard(false, []);
        for ($i = 0; $i < 1100; ++$i) {
            $guard->checkCanonical(\sprintf('93.184.%d.%d', intdiv($i, 250), $i % 250 + 1));
        }
        $verdicts = (new \ReflectionProperty($guard, 'verdicts'))->getValue($guard);

        self::assertIsArray($verdicts);
        self::assertLessThanOrEqual(1024, \count($verdicts));
        $this->expectException(RefusedDestination::class);
        $guard->checkCanonical('127.0.0.1');
    }
}
