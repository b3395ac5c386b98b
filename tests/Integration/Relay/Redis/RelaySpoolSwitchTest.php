<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay\Redis;

/**
 * An operator moves a relay between its SQLite spool and a fleet's Redis on the same journal
 * (`--spool=PATH` and `--spool=redis://... --journal=PATH`): every acknowledged request is
 * delivered, and none twice because the new spool took the journal from its start again.
 */
final class RelaySpoolSwitchTest extends RedisTestCase
{
    public function testFromRedisToSqliteTheUnforwardedAreDeliveredAndTheForwardedNotAgain(): void
    {
        $origin = FleetOrigin::start();
        $relay = FleetRelay::start($this->redis->url(), ['--allow-private-networks']);
        $caller = new FleetCaller();
        foreach (range(0, 19) as $i) {
            self::assertTrue($caller->dispatch($relay->address(), $origin->url($i)));
        }
        self::assertSame([], $origin->awaitDelivered(range(0, 19), 10.0), 'through Redis');
        $this->redis->kill(); // what comes next stays in the journal, not forwarded
        foreach (range(20, 39) as $i) {
            self::assertTrue($caller->dispatch($relay->address(), $origin->url($i)));
        }

        $relay->relaunchWith(null);

        self::assertSame([], $origin->awaitDelivered(range(20, 39), 10.0), $relay->log());
        usleep(300_000);
        self::assertSame(array_fill(0, 40, 1), array_values(self::byId($origin->delivered())), 'each once');
        self::assertStringContainsString('resuming after it, not taking its requests twice', $relay->log());
    }

    public function testFromSqliteToRedisWhatWaitsInTheSqliteSpoolIsDeliveredByTheFleetOnce(): void
    {
        $origin = FleetOrigin::start();
        $relay = FleetRelay::start($this->redis->url(), ['--allow-private-networks', '--retry-base=30']);
        $relay->relaunchWith(null);
        $caller = new FleetCaller();
        foreach (range(0, 9) as $i) {
            self::assertTrue($caller->dispatch($relay->address(), $origin->url($i)));
        }
        self::assertSame([], $origin->awaitDelivered(range(0, 9), 10.0), 'through SQLite');
        $origin->answer(503); // the next ten wait in the SQLite spool, retrying in 0-30 s
        foreach (range(10, 19) as $i) {
            self::assertTrue($caller->dispatch($relay->address(), $origin->url($i)));
        }
        $deadline = microtime(true) + 10.0;
        while (\count($origin->requests()) < 20 && microtime(true) < $deadline) {
            usleep(50_000);
        }

        $origin->answer(200);
        $relay->relaunchWith($this->redis->url());

        self::assertSame([], $origin->awaitDelivered(range(10, 19), 10.0), $relay->log());
        usleep(300_000);
        self::assertSame(array_fill(0, 20, 1), array_values(self::byId($origin->delivered())), 'each once');
        self::assertStringContainsString('were moved into the fleet\'s Redis spool', $relay->log());
    }

    /**
     * @param array<string, int> $delivered
     *
     * @return array<string, int> in id order
     */
    private static function byId(array $delivered): array
    {
        ksort($delivered, \SORT_NUMERIC);

        return $delivered;
    }
}
