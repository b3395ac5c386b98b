<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Netns;

use Psr\Http\Client\ClientExceptionInterface;
use WarmHttp\Client;
use WarmHttp\Exception\RequestException;
use WarmHttp\Rig\FreePort;
use WarmHttp\Rig\RawOrigin;
use WarmHttp\Tests\Integration\Relay\RelayProcess;

/**
 * The sync-mode policy, in the loopback-only namespace: a relay_sync request follows its
 * Client's own policy, as a direct call does, so an app reaches its internal services through
 * a relay with the default policy (no --allow-private-networks); a Client that sets
 * relay_sync_guard, or a relay started with --guard-sync, gets the guard, and the service then
 * sees no connection at all.
 */
final class SyncUnguardedTest extends LoopbackOnlyTestCase
{
    private static ?RelayProcess $relay = null;

    public static function tearDownAfterClass(): void
    {
        self::$relay?->remove();
        self::$relay = null;
    }

    public function testAnUnguardedSyncCallReachesALoopbackServiceExactlyLikeADirectCall(): void
    {
        $origin = RawOrigin::start();
        try {
            foreach (["http://127.0.0.1:{$origin->port()}/echo", "http://evil.example:{$origin->port()}/echo", "http://localhost:{$origin->port()}/ok", 'http://127.0.0.1:' . FreePort::pick() . '/refused'] as $url) {
                self::assertSame(self::outcome(new Client(), $url), self::outcome(self::client(), $url), $url);
            }
        } finally {
            $origin->stop();
        }
    }

    public function testAClientThatSetsRelaySyncGuardGetsTheGuardAndTheServiceNoConnection(): void
    {
        $origin = RawOrigin::start();
        try {
            $client = self::client(['relay_sync_guard' => true]);
            try {
                $client->sendRequest($client->createRequest('GET', "http://evil.example:{$origin->port()}/ok"));
                self::fail('the guard refuses loopback');
            } catch (RequestException $e) {
                self::assertStringContainsString('Refused destination "evil.example"', $e->getMessage());
            }
            self::assertSame(0, $origin->stats()['connections']);
        } finally {
            $origin->stop();
        }
    }

    public function testARelayStartedWithGuardSyncGuardsAClientThatDidNotAsk(): void
    {
        $origin = RawOrigin::start();
        $relay = RelayProcess::start(['--guard-sync', '--timeout=2']);
        try {
            $client = new Client(['relay' => $relay->address(), 'relay_sync' => true]);
            $this->expectException(RequestException::class);
            $this->expectExceptionMessage('--allow-private-networks');
            $client->sendRequest($client->createRequest('GET', "http://127.0.0.1:{$origin->port()}/ok"));
        } finally {
            self::assertSame(0, $origin->stats()['connections']);
            $relay->remove();
            $origin->stop();
        }
    }

    /** @param array<string, mixed> $options */
    private static function client(array $options = []): Client
    {
        self::$relay ??= RelayProcess::start(['--timeout=2']);

        return new Client(['relay' => self::$relay->address(), 'relay_sync' => true] + $options);
    }

    /** @return array<string, mixed> */
    private static function outcome(Client $client, string $url): array
    {
        $request = $client->createRequest('GET', $url);
        try {
            $response = $client->sendRequest($request);

            // The echoed head: what reached the service, byte for byte, direct or relayed.
            return ['status' => $response->getStatusCode(), 'version' => $response->getProtocolVersion(), 'body' => (string) $response->getBody()];
        } catch (ClientExceptionInterface $e) {
            return ['exception' => $e::class, 'message' => (string) preg_replace('/after \d+ ms/', 'after N ms', $e->getMessage())];
        }
    }
}
