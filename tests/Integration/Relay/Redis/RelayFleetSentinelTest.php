<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay\Redis;

use PHPUnit\Framework\TestCase;

/**
 * A fleet whose Redis is found through Sentinel (redis+sentinel://): the relay asks the
 * Sentinel for the master, and again after a failover, and delivers what was acknowledged
 * before, during and after it.
 */
final class RelayFleetSentinelTest extends TestCase
{
    public function testTheFleetFollowsTheMasterThroughAFailover(): void
    {
        if (!RedisServer::installed()) {
            self::markTestSkipped('needs redis-server and php8.2-redis (scripts/setup installs both)');
        }
        $master = RedisServer::start();
        $replica = $master->replica();
        self::assertTrue(self::await(static fn(): bool => $replica->role() === 'slave:up', 10.0), 'the replica is in sync');
        $sentinel = $master->sentinel('fleet', [$replica]);
        $origin = FleetOrigin::start();
        $relay = FleetRelay::start(\sprintf('redis+sentinel://127.0.0.1:%d/fleet/0', $sentinel->port), ['--allow-private-networks', '--claim-after=2']);
        $caller = new FleetCaller();
        foreach (range(0, 9) as $i) {
            self::assertTrue($caller->dispatch($relay->address(), $origin->url($i)));
        }
        self::assertSame([], $origin->awaitDelivered(range(0, 9), 10.0), 'delivered through the master Sentinel named');

        self::assertTrue(self::await(static fn(): bool => \count((array) $sentinel->client()->rawCommand('SENTINEL', 'REPLICAS', 'fleet')) > 0, 15.0), 'the Sentinel knows the replica');
        $sentinel->client()->rawCommand('SENTINEL', 'FAILOVER', 'fleet');
        self::assertTrue(self::await(static fn(): bool => str_starts_with($replica->role(), 'master'), 15.0), 'the replica was promoted');
        foreach (range(10, 29) as $i) {
            self::assertTrue($caller->dispatch($relay->address(), $origin->url($i)), 'acknowledged during and after the failover');
            usleep(50_000);
        }
        // Until the Sentinel turns the old master into a replica, it still takes writes (a split
        // brain, as in any Sentinel failover); those are lost when it resyncs, and the relay
        // forwards them again from its journal once the old master refuses its next write.
        self::assertTrue(self::await(static fn(): bool => str_starts_with($master->role(), 'slave'), 20.0), 'the old master was turned into a replica');
        self::assertSame([], $origin->awaitDelivered(range(0, 29), 20.0), 'every one delivered');
        self::assertTrue(self::await(static fn(): bool => (int) $replica->client()->hGet('warmhttp:relay:stats', 'delivered') >= 30, 25.0), 'the new master has every request the relay acknowledged delivered');
    }

    /** @param \Closure(): bool $condition */
    private static function await(\Closure $condition, float $timeout): bool
    {
        $deadline = microtime(true) + $timeout;
        while (!$condition()) {
            if (microtime(true) > $deadline) {
                return false;
            }
            usleep(100_000);
        }

        return true;
    }
}
