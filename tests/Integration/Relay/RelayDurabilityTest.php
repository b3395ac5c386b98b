<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use WarmHttp\Client;
use WarmHttp\Relay\App\DeferredSends;
use WarmHttp\Relay\Storage\SpoolReader;
use WarmHttp\Rig\Rig;

/**
 * The relay as a real process, killed for real: nothing it acknowledged may be lost.
 */
final class RelayDurabilityTest extends TestCase
{
    public function testEveryAcknowledgedDispatchIsDeliveredAcrossASigkill(): void
    {
        $rig = Rig::shared();
        // 100 ms per round trip keeps deliveries in flight and queued when the relay dies.
        $proxy = $rig->proxyTo('plain', 100);
        $relay = RelayProcess::start(['--allow-private-networks', '--spool-sync=normal']);
        $logger = new MemoryLogger();
        $client = new Client(['relay' => $relay->address(), 'logger' => $logger, 'relay_allow_private_networks' => true]);
        $run = bin2hex(random_bytes(4));
        $pendingAtKill = 0;
        for ($i = 0; $i < 1000; ++$i) {
            if ($i === 400) {
                $relay->kill();
                $pendingAtKill = SpoolReader::open($relay->spoolPath())->counts()['pending'];
            }
            if ($i === 450) {
                $relay->launch();
            }
            $client->dispatch($client->createRequest('POST', $proxy->url("/echo-body?run=$run&id=$i"))->withBody($client->createStream("payload $i")));
        }
        $fellBack = self::ids($logger->contexts('Relay hand-off failed'));
        self::assertGreaterThan(0, $pendingAtKill, 'the kill should catch requests spooled but not yet delivered');
        self::assertNotEmpty($fellBack, 'dispatches while the relay was down fall back');
        self::assertSame([], array_filter($fellBack, static fn(int $id): bool => $id < 400 || $id >= 450 + 5));

        $acknowledged = array_diff(range(0, 999), $fellBack);
        $seen = self::awaitIds($run, $acknowledged, 60.0);
        self::assertSame([], array_values(array_diff($acknowledged, $seen)), 'acknowledged dispatches missing at the origin');

        DeferredSends::flush();
        $seen = self::awaitIds($run, range(0, 999), 10.0);
        self::assertCount(1000, array_unique($seen), 'with the fallbacks sent, every dispatch reached the origin');
        self::assertStringContainsString('Relay started', $relay->log());
        $relay->remove();
    }

    public function testSigtermDrainsAndARestartResumesTheSpool(): void
    {
        $rig = Rig::shared();
        $proxy = $rig->proxyTo('plain', 300);
        $relay = RelayProcess::start(['--allow-private-networks', '--drain-timeout=0.1', '--max-in-flight=2']);
        $client = new Client(['relay' => $relay->address()]);
        $run = bin2hex(random_bytes(4));
        for ($i = 0; $i < 20; ++$i) {
            $client->dispatch($client->createRequest('POST', $proxy->url("/echo-body?run=$run&id=$i")));
        }
        self::assertSame(0, $relay->terminate(), 'SIGTERM is a clean exit');
        self::assertStringContainsString('Relay stopped', $relay->log());
        self::assertGreaterThan(0, SpoolReader::open($relay->spoolPath())->counts()['pending'], 'unfinished work stays spooled');

        $relay->launch();
        self::assertCount(20, array_unique(self::awaitIds($run, range(0, 19), 30.0)));
        $relay->remove();
    }

    /**
     * @param list<array<mixed>> $contexts
     *
     * @return list<int>
     */
    private static function ids(array $contexts): array
    {
        $ids = [];
        foreach ($contexts as $context) {
            if (preg_match('/[?&]id=(\d+)/', (string) ($context['uri'] ?? ''), $m) === 1) { // @phpstan-ignore cast.string
                $ids[] = (int) $m[1];
            }
        }

        return $ids;
    }

    /**
     * @param array<int> $expected
     *
     * @return list<int> ids of this run seen at the origin
     */
    private static function awaitIds(string $run, array $expected, float $timeout): array
    {
        $deadline = microtime(true) + $timeout;
        do {
            $seen = [];
            foreach (Rig::shared()->nginx()->accessLog() as $entry) {
                if (str_contains($entry['uri'], "run=$run&") && preg_match('/[?&]id=(\d+)/', $entry['uri'], $m) === 1 && $entry['status'] === 200) {
                    $seen[] = (int) $m[1];
                }
            }
            if (array_diff($expected, $seen) === []) {
                break;
            }
            usleep(50_000);
        } while (microtime(true) < $deadline);

        return $seen;
    }
}
