<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay\Redis;

use PHPUnit\Framework\TestCase;

/**
 * A fleet run by a clumsy operator: a wrong password, a Redis that loses everything under a
 * running fleet. Nothing acknowledged is lost, the relay says what is wrong, the password never
 * shows.
 */
final class RelayFleetOperatorTest extends TestCase
{
    private const PASSWORD = 'Sw0rdfish/with@odd#chars';

    protected function setUp(): void
    {
        if (!RedisServer::installed()) {
            self::markTestSkipped('needs redis-server and php8.2-redis (scripts/setup installs both)');
        }
    }

    public function testAWrongPasswordIsSaidOnceAcknowledgedIntoTheJournalAndDeliveredOnceFixed(): void
    {
        $redis = RedisServer::start(['--requirepass', self::PASSWORD]);
        $origin = FleetOrigin::start();
        $relay = FleetRelay::start(self::url($redis, 'not-the-password'), ['--allow-private-networks'], inEnvironment: true);
        $caller = new FleetCaller();
        foreach (range(0, 4) as $i) {
            self::assertTrue($caller->dispatch($relay->address(), $origin->url($i)));
        }
        $this->awaitMetric($relay, 'redis_up', 0.0);
        self::assertStringContainsString('Redis is unreachable or refuses this relay', $relay->log());
        self::assertStringContainsString('WRONGPASS', $relay->log());
        self::assertStringNotContainsString('The delivery worker exited', $relay->log(), 'no crash loop');
        self::assertStringNotContainsString('not-the-password', $relay->log());

        $relay->relaunchWith(self::url($redis, self::PASSWORD));
        self::assertSame([], $origin->awaitDelivered(range(0, 4), 10.0), $relay->log());
        $this->awaitMetric($relay, 'redis_up', 1.0);

        $seen = [$relay->log(), implode("\n", array_map(static fn(string $k, float $v): string => "$k $v", array_keys($relay->metrics()), $relay->metrics()))];
        $seen[] = FleetRelay::command(self::url($redis, self::PASSWORD), 'relay:status', ['--format=json'])->getOutput();
        foreach ($relay->pids() as $pid) {
            $seen[] = (string) file_get_contents('/proc/' . $pid . '/cmdline');
        }
        self::assertCount(5, $seen, 'front and worker both running');
        foreach ($seen as $text) {
            self::assertStringNotContainsString('Sw0rdfish', $text);
        }
    }

    public function testAPasswordOnTheCommandLineIsHiddenFromPsAndTheOperatorToldToUseTheEnvironment(): void
    {
        $redis = RedisServer::start(['--requirepass', self::PASSWORD]);
        $origin = FleetOrigin::start();
        $relay = FleetRelay::start(self::url($redis, self::PASSWORD), ['--allow-private-networks']);
        self::assertTrue((new FleetCaller())->dispatch($relay->address(), $origin->url('argv')));
        self::assertSame([], $origin->awaitDelivered(['argv'], 10.0), $relay->log());

        self::assertCount(2, $relay->pids());
        foreach ($relay->pids() as $pid) {
            $commandLine = (string) file_get_contents('/proc/' . $pid . '/cmdline');
            self::assertStringNotContainsString('Sw0rdfish', $commandLine);
            self::assertStringNotContainsString('chars@', $commandLine);
        }
        self::assertStringContainsString('The Redis password was on the command line', $relay->log());
    }

    public function testARedisUserLimitedToTheFleetsPrefixIsEnough(): void
    {
        $redis = RedisServer::start(['--requirepass', self::PASSWORD]);
        $redis->client()->rawCommand('ACL', 'SETUSER', 'relay', 'on', '>relay-password', '~warmhttp:relay:*', '+@all');
        $origin = FleetOrigin::start();
        $relay = FleetRelay::start(\sprintf('redis://relay:relay-password@127.0.0.1:%d/0', $redis->port), ['--allow-private-networks', '--max-per-host=2'], inEnvironment: true);
        $caller = new FleetCaller();
        foreach (range(0, 4) as $i) {
            self::assertTrue($caller->dispatch($relay->address(), $origin->url($i)));
        }

        self::assertSame([], $origin->awaitDelivered(range(0, 4), 10.0), $relay->log());
        self::assertStringNotContainsString('NOPERM', $relay->log());
    }

    public function testARedisThatLostEverythingUnderARunningFleetLosesNothingAcknowledged(): void
    {
        $redis = RedisServer::start();
        $origin = FleetOrigin::start(delayMs: 5);
        // a fleet cap of 4 keeps the queue in Redis (what the flush loses) and php -S's 8 workers
        // from stalling: without it, on a loaded machine, deliveries hung there for the whole
        // 30 s --timeout (retried and delivered, but past this test's wait)
        $options = ['--allow-private-networks', '--max-per-host=4'];
        [$first, $second] = [FleetRelay::start($redis->url(), $options), FleetRelay::start($redis->url(), $options)];
        $caller = new FleetCaller();
        $dispatch = static function (int $from, int $to) use ($caller, $first, $second, $origin): void {
            foreach (range($from, $to) as $i) {
                self::assertTrue($caller->dispatch(($i % 2 === 0 ? $first : $second)->address(), $origin->url($i)));
            }
        };
        $dispatch(0, 149);
        $deadline = microtime(true) + 10.0;
        while (\count($origin->delivered()) < 30 && microtime(true) < $deadline) {
            usleep(20_000);
        }
        $redis->client()->flushAll(); // FLUSHALL, or a restart without persistence: ~100 forwarded and not delivered
        $dispatch(150, 299);

        self::assertSame([], $origin->awaitDelivered(range(0, 299), 30.0), $first->log() . $second->log());
        $log = $first->log() . $second->log();
        self::assertStringContainsString('Redis no longer had this relay\'s journal position', $log, 'said loudly');
        self::assertStringNotContainsString('The delivery worker exited', $log);
        self::assertStringContainsString('The spool works again', $log);
    }

    public function testARedisAtMaxmemoryRefusingWritesLeavesTheRequestsInTheJournalAndSaysSo(): void
    {
        $redis = RedisServer::start(['--maxmemory', '3mb', '--maxmemory-policy', 'noeviction']);
        $origin = FleetOrigin::start(503); // nothing leaves Redis while it fills
        $relay = FleetRelay::start($redis->url(), ['--allow-private-networks', '--retry-base=0.2', '--retry-cap=0.4']);
        $caller = new FleetCaller();
        foreach (range(0, 59) as $i) {
            self::assertTrue($caller->dispatch($relay->address(), $origin->url($i), str_repeat('x', 65536)), 'acknowledged into the journal');
        }
        $deadline = microtime(true) + 10.0;
        while (!str_contains($relay->log(), 'refuses writes (OOM)') && microtime(true) < $deadline) {
            usleep(100_000);
        }
        self::assertStringContainsString('The spool failed; nothing acknowledged is lost', $relay->log());
        self::assertStringContainsString('Redis is at its maxmemory', $relay->log());
        self::assertGreaterThan(0.0, $relay->metrics()['forwarder_lag_bytes'] ?? 0.0, 'what waits in the journal');

        $redis->client()->config('SET', 'maxmemory', '0');
        $origin->answer(200);
        self::assertSame([], $origin->awaitDelivered(range(0, 59), 15.0), $relay->log());
        self::assertStringNotContainsString('The delivery worker exited', $relay->log());
    }

    public function testTwoFleetsWithTheirOwnPrefixOnOneRedisSeeOnlyTheirOwn(): void
    {
        $redis = RedisServer::start();
        $origin = FleetOrigin::start(503); // everything stays queued, retrying
        $urls = [$redis->url() . '?prefix=blue:', $redis->url() . '?prefix=green:'];
        $relays = [FleetRelay::start($urls[0], ['--allow-private-networks', '--retry-base=30']), FleetRelay::start($urls[1], ['--allow-private-networks', '--retry-base=30'])];
        $caller = new FleetCaller();
        foreach (range(0, 5) as $i) {
            self::assertTrue($caller->dispatch($relays[$i < 2 ? 0 : 1]->address(), $origin->url($i)));
        }
        $deadline = microtime(true) + 10.0;
        while (\count($origin->requests()) < 6 && microtime(true) < $deadline) {
            usleep(50_000);
        }

        $pending = [];
        foreach ($urls as $url) {
            $status = json_decode(FleetRelay::command($url, 'relay:status', ['--format=json'])->getOutput(), true);
            \assert(\is_array($status));
            $pending[] = $status['retrying'] ?? null;
        }
        self::assertSame([2, 4], $pending);
        $prefixes = array_values(array_unique(array_map(static fn(string $key): string => explode(':', $key)[0] . ':', $redis->client()->keys('*'))));
        sort($prefixes);
        self::assertSame(['blue:', 'green:'], $prefixes, 'no key outside the two prefixes');
    }

    private static function url(RedisServer $redis, string $password): string
    {
        return \sprintf('redis://:%s@127.0.0.1:%d/0', $password, $redis->port);
    }

    private function awaitMetric(FleetRelay $relay, string $name, float $value): void
    {
        $deadline = microtime(true) + 5.0;
        while (($relay->metrics()[$name] ?? null) !== $value && microtime(true) < $deadline) {
            usleep(100_000);
        }
        self::assertSame($value, $relay->metrics()[$name] ?? null, $name);
    }
}
