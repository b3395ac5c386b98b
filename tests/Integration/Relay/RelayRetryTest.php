<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use WarmHttp\Client;
use WarmHttp\Relay\Storage\SpoolReader;

/**
 * Retries with backoff against an origin that fails, dead letters, and the operating commands.
 */
final class RelayRetryTest extends TestCase
{
    public function testAFailingOriginIsRetriedUntilItRecovers(): void
    {
        $origin = FlakyOrigin::start(503);
        $relay = RelayProcess::start(['--allow-private-networks', '--retry-base=0.1', '--retry-cap=0.3']);
        $client = new Client(['relay' => $relay->address()]);
        $client->dispatch($client->createRequest('POST', $origin->url('/hook?n=1'))->withBody($client->createStream('{"a":1}')));

        self::assertTrue($origin->await(static fn(array $r): bool => \count($r) >= 3), 'retried while failing');
        $origin->answer(200);
        self::assertTrue($origin->await(static fn(array $r): bool => $r !== [] && $r[\count($r) - 1]['status'] === 200), 'delivered once recovered');

        $keys = array_unique(array_column($origin->requests(), 'key'));
        self::assertCount(1, $keys, 'every attempt carries the same Idempotency-Key');
        self::assertMatchesRegularExpression('/^[0-9a-f]{32}$/', $keys[0]);
        // The origin logs the request as it answers; the relay records the outcome just after.
        $deadline = microtime(true) + 5.0;
        while (true) {
            $status = json_decode($relay->command('relay:status', ['--json', '--socket=' . $relay->socketPath()])->getOutput(), true);
            self::assertIsArray($status);
            if ($status['pending'] === 0 || microtime(true) > $deadline) {
                break;
            }
            usleep(50_000);
        }
        self::assertSame(0, $status['pending']);
        self::assertSame(1, $status['delivered']);
        self::assertSame(0, $status['in_flight']);
        $relay->remove();
    }

    public function testRetryAfterIsHonouredAndTheCallersKeyKept(): void
    {
        $origin = FlakyOrigin::start(429);
        $relay = RelayProcess::start(['--allow-private-networks', '--retry-base=0.05']);
        $client = new Client(['relay' => $relay->address()]);
        $client->dispatch($client->createRequest('PUT', $origin->url('/put'))->withHeader('Idempotency-Key', 'caller-key-1'));
        self::assertTrue($origin->await(static fn(array $r): bool => \count($r) >= 2));
        $origin->answer(204);
        self::assertTrue($origin->await(static fn(array $r): bool => $r !== [] && $r[\count($r) - 1]['status'] === 204));
        $requests = $origin->requests();
        self::assertSame(['caller-key-1'], array_values(array_unique(array_column($requests, 'key'))));
        // Backoff alone would retry within 0.05 s; the origin's "Retry-After: 1" is what waits.
        self::assertGreaterThanOrEqual(0.9, $requests[1]['time'] - $requests[0]['time']);
        $relay->remove();
    }

    public function testAnAlwaysFailingOriginEndsInTheDeadLettersAndRelayRetryDeliversIt(): void
    {
        $origin = FlakyOrigin::start(500);
        $relay = RelayProcess::start(['--allow-private-networks', '--retry-base=0.05', '--max-attempts=3']);
        $client = new Client(['relay' => $relay->address()]);
        $client->dispatch($client->createRequest('POST', $origin->url('/always-fails'))->withBody($client->createStream('x')));
        self::assertTrue($origin->await(static fn(array $r): bool => \count($r) >= 3));
        $dead = $relay->awaitDeadLetters();
        self::assertCount(1, $dead);
        self::assertSame(3, $dead[0]['attempts']);
        self::assertStringContainsString('HTTP 500', $dead[0]['last_error']);
        self::assertStringContainsString('always-fails', $relay->command('relay:failed')->getOutput());

        $origin->answer(200);
        self::assertStringContainsString('Requeued 1', $relay->command('relay:retry', [(string) $dead[0]['id']])->getOutput());
        self::assertTrue($origin->await(static fn(array $r): bool => $r !== [] && $r[\count($r) - 1]['status'] === 200), 'relay:retry delivered it');
        self::assertSame(3 + 1, \count($origin->requests()));
        $relay->remove();
    }

    /**
     * Issue 13 item 7: a 503 (or 429) with a body over the 1 MiB a delivery reads counted as
     * delivered: the size cap fired before the status was looked at, and the request was deleted.
     */
    public function testA503WithABodyOverOneMebibyteIsRetriedNotDeleted(): void
    {
        $origin = RelayStorageOrigin::start(503, 2 * 1048576);
        $relay = RelayProcess::start(['--allow-private-networks', '--retry-base=0.1', '--retry-cap=0.3']);
        self::assertStringStartsWith('HTTP/1.1 202 ', $relay->raw(\sprintf("POST %s HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}", $origin->url('/big-503'))));
        $deadline = microtime(true) + 10;
        while (\count($origin->requests()) < 2 && microtime(true) < $deadline) {
            usleep(50_000);
        }
        self::assertSame(0, SpoolReader::open($relay->spoolPath())->counts()['delivered'], 'a 503 is not a delivery, whatever its body size');
        self::assertGreaterThanOrEqual(2, \count($origin->requests()), 'retried; relay log: ' . $relay->log());

        $origin->answer(200, 2 * 1048576);
        self::assertCount(1, $origin->awaitDelivered(1, 10.0), 'and delivered once the origin says 200, however large its answer');
        $relay->remove();
    }

    public function testAClientErrorIsNotRetried(): void
    {
        $origin = FlakyOrigin::start(422);
        $relay = RelayProcess::start(['--allow-private-networks', '--retry-base=0.05']);
        $client = new Client(['relay' => $relay->address()]);
        $client->dispatch($client->createRequest('POST', $origin->url('/rejects')));
        $dead = $relay->awaitDeadLetters();
        self::assertStringContainsString('HTTP 422', $dead[0]['last_error']);
        self::assertCount(1, $origin->requests());
        $relay->remove();
    }
}
