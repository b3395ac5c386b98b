<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay\Redis;

use WarmHttp\Rig\Rig;

/**
 * Relays on "many hosts" (each with its own socket and journal directory) sharing one real
 * redis-server with AOF: killed, terminated, Redis itself killed, a destination that fails,
 * dead letters replayed from anywhere, and a cap per destination that holds for the fleet.
 */
final class RelayFleetTest extends RedisTestCase
{
    /** Short enough for a test, long enough for a loaded CI machine's deliveries. */
    private const OPTIONS = ['--allow-private-networks', '--claim-after=2', '--timeout=5', '--drain-timeout=2'];

    public function testThreeRelaysLoseNothingAcknowledgedWhenOneIsKilledAndOneTerminatedMidBurst(): void
    {
        $run = bin2hex(random_bytes(4));
        $relays = [$this->relay(), $this->relay(), $this->relay()];
        $caller = new FleetCaller();
        $acknowledged = [];
        for ($i = 0; $i < 3000; ++$i) {
            if ($i === 1000) {
                $relays[0]->kill(); // front and worker, SIGKILL: a crashed host
            }
            if ($i === 1500) {
                self::assertSame(0, $relays[1]->terminate(), 'SIGTERM drains and exits 0');
            }
            if ($i === 2000) {
                $relays[0]->launch(); // Restart=always: its journal is forwarded now
            }
            if ($caller->dispatch($relays[$i % 3]->address(), self::url($run, $i, 5))) {
                $acknowledged[] = $i;
            }
        }
        // 1,000-2,000 the first relay was down, from 1,500 the second: their thirds were refused
        self::assertGreaterThanOrEqual(2160, \count($acknowledged), 'only the relays that were down refused');

        $delivered = self::awaitDelivered($run, $acknowledged, 45.0);
        self::assertSame([], array_values(array_diff($acknowledged, array_keys($delivered))), 'every acknowledged request reaches the origin');
        $duplicates = array_sum($delivered) - \count($delivered);
        fwrite(\STDERR, \sprintf("\n[fleet] %d acknowledged, %d delivered, %d duplicates, %.0f claimed from the killed relay\n", \count($acknowledged), \count($delivered), $duplicates, ($relays[2]->metrics()['claimed_total'] ?? 0.0) + ($relays[0]->metrics()['claimed_total'] ?? 0.0)));
        self::assertLessThan(600, $duplicates, 'at least once, not wholesale');
    }

    public function testRedisKilledAndRestartedFromItsAofMidBurstLosesNothing(): void
    {
        $run = bin2hex(random_bytes(4));
        $relays = [$this->relay(), $this->relay()];
        $caller = new FleetCaller();
        $acknowledged = [];
        $downMetrics = [];
        for ($i = 0; $i < 1000; ++$i) {
            if ($i === 300) {
                $this->redis->kill();
            }
            if ($i === 600) {
                $deadline = microtime(true) + 3.0; // the workers notice and say so (published twice a second)
                do {
                    usleep(100_000);
                    $downMetrics = $relays[0]->metrics();
                } while (($downMetrics['redis_up'] ?? 1.0) !== 0.0 && microtime(true) < $deadline);
                $this->redis->launch(); // same port, same AOF
            }
            if ($caller->dispatch($relays[$i % 2]->address(), self::url($run, $i, 1))) {
                $acknowledged[] = $i;
            }
        }
        self::assertCount(1000, $acknowledged, 'a Redis that is down does not stop the 202s: the journal takes them');
        $delivered = self::awaitDelivered($run, $acknowledged, 30.0);
        self::assertSame([], array_values(array_diff($acknowledged, array_keys($delivered))), 'none lost');
        self::assertSame(0.0, $downMetrics['redis_up'] ?? null, '/metrics said Redis was down');
        self::assertStringContainsString('The spool failed; nothing acknowledged is lost', $relays[0]->log() . $relays[1]->log());
    }

    public function testAFailingDestinationGetsItsRetriesFromWhicheverRelayIsAlive(): void
    {
        $origin = FleetOrigin::start(status: 503);
        $options = ['--retry-base=0.2', '--retry-cap=0.5'];
        [$first, $second] = [$this->relay($options), $this->relay($options)];
        $caller = new FleetCaller();
        foreach (range(0, 19) as $i) {
            self::assertTrue($caller->dispatch($first->address(), $origin->url($i)));
        }
        $deadline = microtime(true) + 10;
        while (\count(array_unique(array_column($origin->requests(), 'id'))) < 20 && microtime(true) < $deadline) {
            usleep(20_000);
        }
        $first->kill();
        $origin->answer(200);

        self::assertSame([], $origin->awaitDelivered(range(0, 19), 20.0), 'the surviving relay delivered every retry');
        $keys = [];
        foreach ($origin->requests() as $request) {
            $keys[$request['id']][$request['key']] = true;
        }
        self::assertSame(array_fill(0, 20, 1), array_values(array_map('count', $keys)), 'one Idempotency-Key per request over every attempt from every relay');
        self::assertGreaterThan(20, \count($origin->requests()), 'there were retries');
    }

    public function testADeadLetterIsReplayedFromAnyHost(): void
    {
        $origin = FleetOrigin::start(status: 503);
        [$first, $second] = [$this->relay(['--max-attempts=1']), $this->relay(['--max-attempts=1'])];
        self::assertTrue((new FleetCaller())->dispatch($first->address(), $origin->url('dead')));
        $dead = [];
        $deadline = microtime(true) + 10;
        while ($dead === [] && microtime(true) < $deadline) {
            usleep(50_000);
            /** @var list<array{id: int, uri: string, attempts: int, last_error: string}> $dead */
            $dead = json_decode(FleetRelay::command($this->redis->url(), 'relay:failed', ['--format=json'])->getOutput(), true);
        }
        self::assertCount(1, $dead);
        self::assertSame($origin->url('dead'), $dead[0]['uri']);
        self::assertSame('HTTP 503; gave up after 1 attempts', $dead[0]['last_error']);

        $origin->answer(200);
        $first->kill();
        FleetRelay::command($this->redis->url(), 'relay:retry', [(string) $dead[0]['id']]);
        self::assertSame([], $origin->awaitDelivered(['dead'], 10.0), 'the other relay delivered it');
        /** @var array{pending: int, dead: int, delivered: int} $status */
        $status = json_decode(FleetRelay::command($this->redis->url(), 'relay:status', ['--format=json'])->getOutput(), true);
        self::assertSame([0, 1], [$status['dead'], $status['delivered']]);
        self::assertStringContainsString('Delivery worker joined the fleet', $second->log(), 'the relay left running delivered it');
    }

    public function testADeliverySlowerThanTheClaimTimeoutIsNotTakenFromALiveRelay(): void
    {
        // 2.5 s: the worker runs at nice 19, and on a loaded machine a heartbeat (every third of
        // it) came more than 1.5 s late; the deliveries take 4 s, longer than the claim lasts
        // unrefreshed and well within --timeout
        $origin = FleetOrigin::start(delayMs: 4000);
        $options = ['--claim-after=2.5', '--timeout=10'];
        [$first, $second] = [$this->relay($options), $this->relay($options)];
        $caller = new FleetCaller();
        foreach (range(0, 3) as $i) {
            self::assertTrue($caller->dispatch($first->address(), $origin->url($i)));
        }
        self::assertSame([], $origin->awaitDelivered(range(0, 3), 20.0));
        usleep(500_000);
        $delivered = $origin->delivered();
        ksort($delivered);
        self::assertSame([1, 1, 1, 1], array_values($delivered), 'each once: the relay delivering kept its claim fresh');
        self::assertSame(0.0, ($first->metrics()['claimed_total'] ?? 0.0) + ($second->metrics()['claimed_total'] ?? 0.0));
    }

    public function testACapOfTwoPerDestinationHoldsAcrossThreeRelays(): void
    {
        $origin = FleetOrigin::start(delayMs: 150);
        $relays = [$this->relay(['--max-per-host=2']), $this->relay(['--max-per-host=2']), $this->relay(['--max-per-host=2'])];
        $caller = new FleetCaller();
        foreach (range(0, 23) as $i) {
            self::assertTrue($caller->dispatch($relays[$i % 3]->address(), $origin->url($i)));
        }
        self::assertSame([], $origin->awaitDelivered(range(0, 23), 20.0));
        self::assertSame(2, $origin->mostAtOnce(), 'two at once across the fleet, never more');
    }

    /** The rig's nginx, sleeping $ms before it answers: many callers at once, unlike php -S. */
    private static function url(string $run, int $id, int $ms): string
    {
        return Rig::shared()->nginx()->url('plain', \sprintf('/slow?ms=%d&run=%s&id=%d', $ms, $run, $id));
    }

    /**
     * @param list<int> $ids
     *
     * @return array<int, int> id => times delivered (200 at the origin), once every id was or after $timeout
     */
    private static function awaitDelivered(string $run, array $ids, float $timeout): array
    {
        $deadline = microtime(true) + $timeout;
        do {
            $delivered = [];
            foreach (Rig::shared()->nginx()->accessLog() as $entry) {
                if ($entry['status'] === 200 && str_contains($entry['uri'], "run=$run&") && preg_match('/[?&]id=(\d+)/', $entry['uri'], $m) === 1) {
                    $delivered[(int) $m[1]] = ($delivered[(int) $m[1]] ?? 0) + 1;
                }
            }
            if (array_diff($ids, array_keys($delivered)) === []) {
                return $delivered;
            }
            usleep(100_000);
        } while (microtime(true) < $deadline);

        return $delivered;
    }

    /** @param list<string> $options */
    private function relay(array $options = []): FleetRelay
    {
        return FleetRelay::start($this->redis->url(), [...self::OPTIONS, ...$options]);
    }
}
