<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay\Redis;

use GuzzleHttp\Psr7\Request;
use Symfony\Component\Process\Process;
use WarmHttp\Client;
use WarmHttp\Relay\Storage\Journal;
use WarmHttp\Rig\TempDir;
use WarmHttp\Tests\Integration\Relay\RelayProcess;

/**
 * `--ack=redis`: the 202 waits until the forwarder has put the request into Redis, so a host
 * lost with its disk (relay killed -9, journal directory gone) loses nothing it acknowledged;
 * with Redis down the 202 comes from the journal after --ack-timeout, and says so.
 */
final class RelayAckRedisTest extends RedisTestCase
{
    private const OPTIONS = ['--allow-private-networks', '--claim-after=2', '--timeout=5', '--drain-timeout=2'];

    public function testAHostLostWithItsDiskLosesNothingItAcknowledged(): void
    {
        $origin = FleetOrigin::start(delayMs: 20);
        $lost = FleetRelay::start($this->redis->url(), [...self::OPTIONS, '--ack=redis']);
        $survivor = FleetRelay::start($this->redis->url(), [...self::OPTIONS, '--ack=redis']);
        $caller = new FleetCaller();
        $acknowledged = [];
        for ($i = 0; $i < 400; ++$i) {
            if ($caller->dispatch($lost->address(), $origin->url($i))) {
                self::assertStringContainsString("X-WarmHttp-Durability: redis\r\n", $caller->lastHead);
                $acknowledged[] = $i;
            }
        }
        $lost->kill(); // front and worker, SIGKILL, right after the last 202
        (new Process(['rm', '-rf', Journal::dirFor($lost->journalBase())]))->mustRun(); // its disk went with it
        self::assertDirectoryDoesNotExist(Journal::dirFor($lost->journalBase()));
        self::assertCount(400, $acknowledged);

        self::assertSame([], $origin->awaitDelivered($acknowledged, 30.0), 'the other relay delivered every acknowledged request');
        self::assertSame(0.0, $survivor->metrics()['acks_local_total'] ?? null, 'shown, and none yet');
    }

    public function testRedisDownAnswersFromTheJournalAfterTheTimeoutAndDeliversOnceItIsBack(): void
    {
        $origin = FleetOrigin::start();
        $relay = FleetRelay::start($this->redis->url(), [...self::OPTIONS, '--ack=redis', '--ack-timeout=0.3']);
        $caller = new FleetCaller();
        self::assertTrue($caller->dispatch($relay->address(), $origin->url('before')));
        self::assertStringContainsString("X-WarmHttp-Durability: redis\r\n", $caller->lastHead);
        $this->redis->kill();
        foreach (range(0, 4) as $i) {
            $started = hrtime(true);
            self::assertTrue($caller->dispatch($relay->address(), $origin->url($i)), 'a Redis that is down does not stop the 202s');
            self::assertStringContainsString("X-WarmHttp-Durability: journal\r\n", $caller->lastHead);
            self::assertGreaterThanOrEqual(0.29, (hrtime(true) - $started) / 1e9, 'after --ack-timeout');
        }
        $metrics = $relay->metrics();
        self::assertSame([5.0, 1.0], [$metrics['acks_local_total'] ?? null, $metrics['acks_redis_total'] ?? null]);
        self::assertStringContainsString('Redis did not take these requests within --ack-timeout', $relay->log());
        $this->redis->launch();

        self::assertSame([], $origin->awaitDelivered(['before', 0, 1, 2, 3, 4], 30.0), 'delivered once Redis is back');
    }

    public function testCallersWaitingTogetherAreAnsweredTogether(): void
    {
        $origin = FleetOrigin::start();
        $relay = FleetRelay::start($this->redis->url(), [...self::OPTIONS, '--ack=redis']);
        $connections = [];
        foreach (range(0, 49) as $i) {
            $connection = stream_socket_client($relay->address(), $errno, $errstr, 2);
            self::assertNotFalse($connection);
            stream_set_timeout($connection, 5);
            $connections[$i] = $connection;
        }
        foreach ($connections as $i => $connection) {
            $url = $origin->url('together' . $i);
            fwrite($connection, "POST {$url} HTTP/1.1\r\nHost: relay\r\nContent-Length: 1\r\n\r\nx");
        }
        foreach ($connections as $connection) {
            $head = '';
            while (!str_contains($head, "\r\n\r\n") && ($line = fgets($connection)) !== false) {
                $head .= $line;
            }
            self::assertStringStartsWith('HTTP/1.1 202', $head);
            self::assertStringContainsString("X-WarmHttp-Durability: redis\r\n", $head);
            fclose($connection);
        }
        self::assertSame([], $origin->awaitDelivered(array_map(static fn(int $i): string => 'together' . $i, range(0, 49)), 20.0));
    }

    public function testARestartedWorkerGetsNewPipesAndAcknowledgesThroughRedisAgain(): void
    {
        $origin = FleetOrigin::start();
        $relay = FleetRelay::start($this->redis->url(), [...self::OPTIONS, '--ack=redis', '--ack-timeout=0.5']);
        $caller = new FleetCaller();
        self::assertTrue($caller->dispatch($relay->address(), $origin->url('first')));
        posix_kill($relay->workerPid(), \SIGKILL); // the front restarts it after a second
        self::assertTrue($caller->dispatch($relay->address(), $origin->url('meanwhile')), 'no worker: the 202 comes from the journal');
        self::assertStringContainsString("X-WarmHttp-Durability: journal\r\n", $caller->lastHead);
        $deadline = microtime(true) + 15.0;
        do {
            self::assertTrue($caller->dispatch($relay->address(), $origin->url('later')));
        } while (!str_contains($caller->lastHead, 'X-WarmHttp-Durability: redis') && microtime(true) < $deadline);
        self::assertStringContainsString("X-WarmHttp-Durability: redis\r\n", $caller->lastHead, 'the new worker reports on its own pipes');
        self::assertSame([], $origin->awaitDelivered(['first', 'meanwhile', 'later'], 20.0));
    }

    public function testAckRedisIsRefusedWithoutARedisSpool(): void
    {
        $dir = TempDir::create('ack');
        $relay = new Process([\PHP_BINARY, RelayProcess::bin(), 'relay', '--socket=' . $dir->path('r.sock'), '--spool=' . $dir->path('relay.sqlite'), '--ack=redis']);
        $relay->run();
        self::assertSame(2, $relay->getExitCode());
        self::assertStringContainsString('--ack=redis needs a redis:// spool', $relay->getErrorOutput());
        $tooLong = new Process([\PHP_BINARY, RelayProcess::bin(), 'relay', '--socket=' . $dir->path('r.sock'), '--spool=' . $this->redis->url(), '--journal=' . $dir->path('relay'), '--ack=redis', '--ack-timeout=2']);
        $tooLong->run();
        self::assertSame(2, $tooLong->getExitCode());
        self::assertStringContainsString('--ack-timeout must be at most 1.5 s', $tooLong->getErrorOutput());
        $dir->remove();
    }

    /**
     * The hand-off as an application sees it (Client::dispatch() on a kept socket), the two
     * modes side by side in one run: one relay each, on the same Redis, calls interleaved.
     */
    public function testHandOffLatencyOfEachModeSideBySide(): void
    {
        $origin = FleetOrigin::start();
        $journal = FleetRelay::start($this->redis->url(), self::OPTIONS);
        $redis = FleetRelay::start($this->redis->url(), [...self::OPTIONS, '--ack=redis']);
        $clients = ['journal' => new Client(['relay' => $journal->address()]), 'redis' => new Client(['relay' => $redis->address()])];
        $times = ['journal' => [], 'redis' => []];
        for ($i = 0; $i < 1000; ++$i) {
            foreach ($clients as $mode => $client) {
                $request = new Request('POST', $origin->url($mode . $i), [], 'payload');
                $started = hrtime(true);
                $client->dispatch($request);
                $times[$mode][] = (hrtime(true) - $started) / 1e3;
            }
        }
        foreach ($times as $mode => $micros) {
            sort($micros);
            fwrite(\STDERR, \sprintf("\n[ack=%s] dispatch() p50 %.0f µs, p99 %.0f µs (%d calls)", $mode, $micros[499], $micros[989], \count($micros)));
        }
        self::assertSame(0.0, $redis->metrics()['acks_local_total'] ?? null, 'every one acknowledged by Redis');
        self::assertGreaterThanOrEqual(1000.0, $redis->metrics()['acks_redis_total'] ?? 0.0);
    }
}
