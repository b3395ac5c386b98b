<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay\Redis;

use PHPUnit\Framework\TestCase;
use Symfony\Component\Process\Process;
use WarmHttp\Relay\Console\RelayLocation;
use WarmHttp\Tests\Integration\Relay\RelayProcess;

/**
 * Starting a relay of a fleet: what is not supported is refused loudly, and a Redis that is not
 * there yet does not keep the relay from acknowledging (the journal holds the requests).
 */
final class RelayFleetStartTest extends TestCase
{
    public function testClusterAndMalformedAddressesAreRefusedWithWhatToDoInstead(): void
    {
        foreach (['redis+cluster://u:hunter2@n1:7000' => 'Redis Cluster is not supported', 'redis://u:hunter2@a:1,b:2/0' => 'one host only', 'redis+sentinel://u:hunter2@s1:26379' => 'name the master\'s service'] as $url => $message) {
            $relay = new Process([\PHP_BINARY, RelayProcess::bin(), 'relay', '--spool=' . $url, '--journal=' . sys_get_temp_dir() . '/never-made', '--socket=none'], null, [RelayLocation::SOCKET_ENV => false, RelayLocation::SPOOL_ENV => false]);
            $relay->run();
            self::assertSame(2, $relay->getExitCode(), $relay->getErrorOutput());
            self::assertStringContainsString($message, $relay->getErrorOutput());
            self::assertStringNotContainsString('hunter2', $relay->getErrorOutput());
        }
    }

    public function testARelayWhoseRedisIsNotThereYetAcknowledgesAndDeliversOnceItIs(): void
    {
        if (!RedisServer::installed()) {
            self::markTestSkipped('needs redis-server and php8.2-redis (scripts/setup installs both)');
        }
        $redis = RedisServer::start();
        $redis->kill(); // its port, with nothing listening
        $origin = FleetOrigin::start();
        $relay = FleetRelay::start($redis->url(), ['--allow-private-networks']);
        $caller = new FleetCaller();
        foreach (range(0, 9) as $i) {
            self::assertTrue($caller->dispatch($relay->address(), $origin->url($i)), 'acknowledged into the journal');
        }
        usleep(300_000);
        self::assertSame(0.0, $relay->metrics()['redis_up'] ?? null);
        self::assertStringContainsString('Redis is unreachable or refuses this relay', $relay->log());

        $redis->launch();
        self::assertSame([], $origin->awaitDelivered(range(0, 9), 10.0));
        self::assertStringContainsString('Redis answers again', $relay->log());
    }
}
