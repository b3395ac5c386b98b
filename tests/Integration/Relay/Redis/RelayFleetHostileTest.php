<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay\Redis;

use WarmHttp\Relay\Storage\Redis\RedisAddress;
use WarmHttp\Relay\Storage\RequestBytes;

/**
 * What a relay of a fleet does with Redis data no relay wrote: anyone who can write to the
 * fleet's Redis can put requests there. None may crash a worker (a crash loop across the
 * fleet: each relay claims the entry after the one before died), forge a request line or
 * header through curl, wedge the queue, or reach a destination the guard refuses.
 */
final class RelayFleetHostileTest extends RedisTestCase
{
    private const PREFIX = RedisAddress::DEFAULT_PREFIX;

    public function testMalformedRequestsInRedisBecomeDeadLettersAndTheWorkerGoesOn(): void
    {
        $origin = FleetOrigin::start();
        $relay = FleetRelay::start($this->redis->url(), ['--allow-private-networks', '--max-body=1024']);
        $client = $this->redis->client();
        $this->inject($client, 900001, ['h' => '[[1,2]]', 'u' => $origin->url('json-headers')]);
        $this->inject($client, 900002, ['h' => RequestBytes::encodeHeaders([['X-Forged', "a\r\nX-Injected: yes"]]), 'u' => $origin->url('crlf-header')]);
        $this->inject($client, 900003, ['m' => "POST /admin HTTP/1.1\r\nX-Injected: yes\r\nX", 'u' => $origin->url('crlf-method')]);
        $this->inject($client, 900004, ['b' => str_repeat('x', 2048), 'u' => $origin->url('big-body')]);
        $this->inject($client, 900006, ['a' => '99999999999999999999', 'u' => $origin->url('attempts')]); // out of range: attempts + 1 would be a float
        $client->set(self::PREFIX . 'r:900005', 'not a hash');
        $client->xAdd(self::PREFIX . 'stream', '*', ['id' => '900005']);
        $client->xAdd(self::PREFIX . 'stream', '*', ['no-id' => 'at all']);

        self::assertTrue((new FleetCaller())->dispatch($relay->address(), $origin->url('after')));
        self::assertSame([], $origin->awaitDelivered(['after'], 10.0), 'the worker goes on past them: ' . $relay->log());
        $failed = $this->awaitDeadLetters(6);

        self::assertSame(['after' => 1], $origin->delivered(), 'none of them reached the origin');
        self::assertSame([900001, 900002, 900003, 900004, 900005, 900006], array_keys($failed));
        self::assertStringContainsString('its body of 2048 bytes is over --max-body (1024)', $failed[900004]);
        self::assertStringContainsString('not a request: its key is not a hash', $failed[900005]);
        self::assertStringContainsString('its method or a header name is not a token', $failed[900003]);
        self::assertStringContainsString('a header value holds CR, LF or NUL', $failed[900002]);
        self::assertStringNotContainsString('The delivery worker exited', $relay->log());
        self::assertSame(6, substr_count($relay->log(), 'A request in Redis no relay could have written'));
        self::assertSame(0, $client->xLen(self::PREFIX . 'stream'), 'the entry without an id is dropped, not claimed for ever');
    }

    public function testARequestPutInRedisForAPrivateAddressIsRefusedAtDelivery(): void
    {
        $origin = FleetOrigin::start();
        $relay = FleetRelay::start($this->redis->url()); // the default guard: no private networks
        $this->inject($this->redis->client(), 900010, ['u' => $origin->url('ssrf')]);

        $failed = $this->awaitDeadLetters(1);

        self::assertStringContainsString('127.0.0.1', $failed[900010] ?? '', $relay->log());
        self::assertSame([], $origin->requests(), 'no connection to the refused address');
    }

    /** @param array<string, string> $fields over a well-formed request's */
    private function inject(\Redis $client, int $id, array $fields): void
    {
        $client->hMSet(self::PREFIX . 'r:' . $id, $fields + [
            'm' => 'POST', 'u' => 'http://127.0.0.1:1/', 'h' => RequestBytes::encodeHeaders([['Content-Type', 'text/plain']]),
            'b' => 'payload', 'k' => 'key-' . $id, 'a' => '0', 'c' => (string) microtime(true),
        ]);
        $client->xAdd(self::PREFIX . 'stream', '*', ['id' => (string) $id]);
    }

    /** @return array<int, string> dead letter id => its error, once $count are there (10 s at most) */
    private function awaitDeadLetters(int $count): array
    {
        $deadline = microtime(true) + 10.0;
        do {
            $rows = json_decode(FleetRelay::command($this->redis->url(), 'relay:failed', ['--json'])->getOutput(), true);
            $rows = \is_array($rows) ? $rows : [];
            if (\count($rows) >= $count || microtime(true) > $deadline) {
                break;
            }
            usleep(100_000);
        } while (true);
        $failed = [];
        foreach ($rows as $row) {
            \assert(\is_array($row) && \is_int($row['id']) && \is_string($row['last_error']));
            $failed[$row['id']] = $row['last_error'];
        }
        ksort($failed);

        return $failed;
    }
}
