<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay\Redis;

use WarmHttp\Relay\Metrics;
use WarmHttp\Relay\Storage\JournalPosition;
use WarmHttp\Relay\Storage\Redis\RedisAddress;
use WarmHttp\Relay\Storage\Redis\RedisConnection;
use WarmHttp\Relay\Storage\Redis\RedisKeys;
use WarmHttp\Relay\Storage\Redis\RedisSpool;
use WarmHttp\Relay\Storage\Redis\RedisSpoolReader;
use WarmHttp\Relay\Storage\SpooledRequest;
use WarmHttp\Relay\Storage\SpoolUnavailable;
use WarmHttp\Relay\Worker\Outcomes;

/**
 * The Redis spool's own contract, against a real redis-server: what two workers (two relays)
 * see of each other's requests, outcomes, leases and claims.
 */
final class RedisSpoolTest extends RedisTestCase
{
    public function testARequestForwardedByOneRelayIsTakenByOneWorkerOnlyWithItsJournalPosition(): void
    {
        [$first, $second] = [$this->spool('a'), $this->spool('b')];
        self::assertSame([], $first->commit([self::request('x'), self::request('y')], null, new JournalPosition(1, 300)), 'the fleet takes them, not the forwarder');
        self::assertEquals(new JournalPosition(1, 300), $first->journalPosition());
        self::assertEquals(new JournalPosition(0, 0), $second->journalPosition(), 'each relay has its own position');

        $taken = $second->due(1.0, 10, []);
        self::assertSame(['x', 'y'], array_map(static fn(SpooledRequest $r): string => $r->body, $taken));
        self::assertSame('key-x', $taken[0]->idempotencyKey);
        self::assertSame([], $first->due(1.0, 10, []), 'an entry goes to one consumer');
    }

    public function testOutcomesDeliveredRetriedAndDeadAreRecordedForTheFleet(): void
    {
        $spool = $this->spool('a');
        $spool->commit([self::request('ok'), self::request('later'), self::request('never')]);
        [$ok, $later, $never] = $spool->due(100.0, 10, []);
        $outcomes = new Outcomes();
        $outcomes->delivered[] = $ok->id;
        $outcomes->retries[$later->id] = [105.0, 1, 'HTTP 503'];
        $outcomes->dead[$never->id] = [1, 'HTTP 404: a client error is not retried'];
        $spool->commit([], $outcomes);

        $reader = RedisSpoolReader::open(RedisAddress::parse($this->redis->url()));
        self::assertSame(['pending' => 1, 'retrying' => 1, 'dead' => 1, 'delivered' => 1, 'dead_lettered' => 1], array_intersect_key($reader->counts(), array_flip(['pending', 'retrying', 'dead', 'delivered', 'dead_lettered'])));
        self::assertSame([], $this->spool('b')->due(104.0, 10, []), 'not due yet');
        $retry = $this->spool('b')->due(105.5, 10, []);
        self::assertSame([[$later->id, 1, 'key-later']], array_map(static fn(SpooledRequest $r): array => [$r->id, $r->attempts, $r->idempotencyKey], $retry), 'due on any relay, attempts and key kept');

        self::assertSame('HTTP 404: a client error is not retried', $reader->deadLetters()[0]['last_error']);
        self::assertSame(1, $reader->retry([$never->id]));
        self::assertSame(0, $reader->retry([$never->id]), 'requeued once');
        self::assertSame([[$never->id, 0]], array_map(static fn(SpooledRequest $r): array => [$r->id, $r->attempts], $this->spool('c')->due(106.0, 10, [])));
    }

    public function testACapIsSharedByEveryRelayAndFreedWithTheCommitAfterADelivery(): void
    {
        [$first, $second] = [$this->spool('a'), $this->spool('b')];
        $origin = 'http://hooks.example:80';
        self::assertTrue($first->mayStart($origin, 2));
        $first->commit([]); // the end of its loop pass: what it did not start goes back
        self::assertTrue($second->mayStart($origin, 2));
        self::assertFalse($first->mayStart($origin, 2), 'two in the fleet');
        self::assertFalse($second->mayStart($origin, 2));

        $first->settled($origin);
        $first->commit([]);
        self::assertTrue($second->mayStart($origin, 2), 'released with the commit after the delivery');
    }

    public function testUnusedLeasesOfARoundAreReleasedWithTheNextCommit(): void
    {
        [$first, $second] = [$this->spool('a'), $this->spool('b')];
        $origin = 'http://hooks.example:80';
        self::assertTrue($first->mayStart($origin, 3)); // takes the three at once, uses one
        self::assertFalse($second->mayStart($origin, 3));
        $first->commit([]);
        self::assertTrue($second->mayStart($origin, 3));
        self::assertTrue($second->mayStart($origin, 3));
        self::assertFalse($second->mayStart($origin, 3), 'the first still holds the lease it used');
    }

    public function testUnusedLeasesGoBackAtTheEndOfTheLoopPassWhileADeliveryRuns(): void
    {
        [$first, $second] = [$this->spool('a'), $this->spool('b')];
        $origin = 'http://slow.example:80';
        self::assertTrue($first->mayStart($origin, 2)); // one slow delivery, the other lease spare
        $first->heartbeat(); // the end of its loop pass, the delivery still running
        self::assertTrue($second->mayStart($origin, 2), 'the spare lease is the fleet\'s again');
    }

    public function testARedisThatCameBackWithoutTheLastPositionIsToldAndTheOldPositionReadBack(): void
    {
        $spool = $this->spool('a');
        $spool->journalPosition();
        $spool->commit([self::request('x')], null, new JournalPosition(1, 100));
        $spool->commit([self::request('y')], null, new JournalPosition(1, 200));
        $admin = $this->redis->client();
        $admin->hSet('warmhttp:relay:journal', 'a', '1:100'); // as a restart that lost its last second would leave it
        $admin->rawCommand('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes');

        try {
            $spool->commit([self::request('z')], null, new JournalPosition(1, 300));
            self::fail('the lost position is reported');
        } catch (SpoolUnavailable $e) {
            self::assertStringContainsString('no longer had this relay\'s journal position 1:200 (it had 1:100', $e->getMessage());
        }
        self::assertEquals(new JournalPosition(1, 100), $spool->journalPosition(), 'forwarding resumes from what Redis has');
        $spool->commit([self::request('y')], null, new JournalPosition(1, 200));
        self::assertEquals(new JournalPosition(1, 200), $spool->journalPosition());
    }

    public function testAnIdleWorkerFindsTheLostPositionOnItsNextConnectionWithoutACommit(): void
    {
        $spool = $this->spool('a');
        $spool->journalPosition();
        $spool->commit([self::request('x')], null, new JournalPosition(1, 100));
        $spool->commit([self::request('y')], null, new JournalPosition(1, 200));
        $this->redis->kill(); // a restart that lost its last second (appendfsync everysec)
        $this->expectUnavailable(static fn() => $spool->due(1.0, 10, []), 'Connection lost');
        $this->redis->launch();
        $this->redis->client()->hSet('warmhttp:relay:journal', 'a', '1:100');

        $this->expectUnavailable(static fn() => $spool->due(1.0, 10, []), 'no longer had this relay\'s journal position 1:200 (it had 1:100');
        self::assertEquals(new JournalPosition(1, 100), $spool->journalPosition(), 'forwarding resumes from what Redis has, with no request to commit');
    }

    public function testAnIdleWorkerFindsTheLostPositionBehindASilentReconnectWithinASecond(): void
    {
        $spool = $this->spool('a');
        $spool->journalPosition();
        $spool->commit([self::request('x')], null, new JournalPosition(1, 100));
        self::assertSame(['x'], array_map(static fn(SpooledRequest $r): string => $r->body, $spool->due(1.0, 10, [])), 'the position is Redis\'s: no complaint');
        $admin = $this->redis->client();
        $admin->hSet('warmhttp:relay:journal', 'a', '0:0');
        $admin->rawCommand('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes'); // phpredis reconnects without a word

        usleep(1_050_000);
        $this->expectUnavailable(static fn() => $spool->due(1.0, 10, []), 'no longer had this relay\'s journal position 1:100 (it had 0:0');
    }

    public function testIdsAfterAFailoverThatLostTheLastOnesNeverMeetTheIdsWorkersStillHold(): void
    {
        $spool = $this->spool('a');
        $spool->commit([self::request('old-1'), self::request('old-2')]);
        $held = $spool->due(1.0, 10, []);
        $admin = $this->redis->client();
        $admin->set('warmhttp:relay:seq', (string) (min([\PHP_INT_MAX, ...self::ids($held)]) - 1)); // the new master never got these two

        $spool->commit([self::request('new-1')]);
        $taken = $this->spool('b')->due(1.0, 10, []);
        self::assertSame(['new-1'], array_map(static fn(SpooledRequest $r): string => $r->body, $taken));
        self::assertGreaterThan(max([0, ...self::ids($held)]), $taken[0]->id);
    }

    public function testIdsAfterARedisThatLostEverythingNeverMeetTheIdsWorkersStillHold(): void
    {
        [$holding, $forwarding] = [$this->spool('a'), $this->spool('b')];
        $holding->commit([self::request('old-1'), self::request('old-2')]);
        $held = $holding->due(1.0, 10, []);
        $this->redis->client()->flushAll(); // FLUSHALL, or a restart without persistence

        $forwarding->commit([self::request('new-1'), self::request('new-2')]);
        $taken = $holding->due(1.0, 10, []);
        $outcomes = new Outcomes();
        $outcomes->delivered = array_map(static fn(SpooledRequest $r): int => $r->id, $held);
        $holding->commit([], $outcomes);

        self::assertSame(['new-1', 'new-2'], array_map(static fn(SpooledRequest $r): string => $r->body, $taken), 'taken, not dropped as the ids this worker holds');
        self::assertCount(2, $held);
        self::assertGreaterThan(max([0, ...self::ids($held)]), min([\PHP_INT_MAX, ...self::ids($taken)]));
    }

    public function testRelaysReportOnRedisTimeNotTheirHostsClock(): void
    {
        $this->spool('a')->gauges(3, 0);
        $admin = $this->redis->client();
        $time = $admin->time();
        \assert(\is_array($time));
        $seconds = (float) $time[0];
        $report = json_decode((string) $admin->hGet('warmhttp:relay:relays', 'a'), true);
        \assert(\is_array($report) && is_numeric($report['at'] ?? null));
        self::assertEqualsWithDelta($seconds, (float) $report['at'], 1.5, 'stamped by Redis');
        $admin->hSet('warmhttp:relay:relays', 'gone', (string) json_encode(['in_flight' => 5, 'forwarder_lag_bytes' => 0, 'at' => $seconds - 30.0]));

        $relays = RedisSpoolReader::open(RedisAddress::parse($this->redis->url()))->relays();

        self::assertSame(['a'], array_keys($relays), 'one not heard from for 30 s of Redis time is left out');
        self::assertSame(3, $relays['a']['in_flight']);
    }

    public function testEntriesOfAWorkerThatStoppedTalkingAreClaimedAfterTheTimeoutOnlyThen(): void
    {
        [$dead, $alive] = [$this->spool('a', claimAfter: 0.4), $this->spool('b', claimAfter: 0.4)];
        $dead->commit([self::request('orphan')]);
        self::assertCount(1, $dead->due(1.0, 10, []));
        $early = $alive->due(1.0, 10, []);
        usleep(500_000);
        $late = $alive->due(1.0, 10, []);
        self::assertSame([], $early, 'not idle long enough');
        self::assertSame(['orphan'], array_map(static fn(SpooledRequest $r): string => $r->body, $late));
    }

    public function testAHeartbeatKeepsAWorkersEntriesItsOwn(): void
    {
        [$busy, $other] = [$this->spool('a', claimAfter: 0.4), $this->spool('b', claimAfter: 0.4)];
        $busy->commit([self::request('slow')]);
        self::assertCount(1, $busy->due(1.0, 10, []));
        for ($i = 0; $i < 6; ++$i) {
            usleep(150_000);
            $busy->heartbeat();
            self::assertSame([], $other->due(1.0, 10, []));
        }
    }

    public function testRequestsGivenBackGoToTheOthersAtOnce(): void
    {
        [$stopping, $other] = [$this->spool('a'), $this->spool('b')];
        $stopping->commit([self::request('one'), self::request('two')]);
        $taken = $stopping->due(1.0, 10, []);
        $stopping->giveBack([$taken[1]->id]);
        self::assertSame(['two'], array_map(static fn(SpooledRequest $r): string => $r->body, $other->due(1.0, 10, [])));
    }

    private function spool(string $relay, float $claimAfter = 60.0): RedisSpool
    {
        $address = RedisAddress::parse($this->redis->url());
        $keys = new RedisKeys($address->prefix);

        return new RedisSpool(new RedisConnection($address, $keys->ensureGroup(...)), $keys, $relay, $claimAfter, 30.0, new Metrics());
    }

    /**
     * @param list<SpooledRequest> $requests
     *
     * @return list<int>
     */
    private static function ids(array $requests): array
    {
        return array_map(static fn(SpooledRequest $r): int => $r->id, $requests);
    }

    private static function request(string $body): SpooledRequest
    {
        return new SpooledRequest(0, 'POST', 'http://hooks.example/' . $body, [['Content-Type', 'text/plain']], $body, 'key-' . $body, 0, 100.0);
    }

    /** @param \Closure(): mixed $call */
    private function expectUnavailable(\Closure $call, string $message): void
    {
        try {
            $call();
            self::fail('SpoolUnavailable expected: ' . $message);
        } catch (SpoolUnavailable $e) {
            self::assertStringContainsString($message, $e->getMessage());
        }
    }

}
