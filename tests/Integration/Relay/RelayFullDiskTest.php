<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use Symfony\Component\Process\Process;
use WarmHttp\Client;
use WarmHttp\Relay\App\DeferredSends;
use WarmHttp\Rig\Rig;

/**
 * The spool on a 4 MiB tmpfs: once it is full the relay answers 507 and dispatch falls back.
 */
final class RelayFullDiskTest extends TestCase
{
    public function testAFullSpoolDiskMakesDispatchFallBackNotLose(): void
    {
        SmallDisk::with('size=4m', fn(string $disk) => $this->fillAndFallBack($disk . '/spool.sqlite'));
    }

    /**
     * Issue 13 item 9: with the documented 2 MiB reserve, a full disk used to wedge the spool for
     * good: acknowledged requests stayed stuck after the origin and the disk recovered, and the
     * worker logged 100 lines a second.
     */
    public function testEverythingAcknowledgedIsDeliveredOnceTheDiskAndTheOriginRecover(): void
    {
        SmallDisk::with('size=4m', fn(string $disk) => $this->fillRecoverAndDeliver($disk));
    }

    private function fillRecoverAndDeliver(string $disk): void
    {
        $origin = RelayStorageOrigin::start(503);
        $relay = RelayProcess::start(['--allow-private-networks', '--spool-reserve=2097152', '--retry-base=0.5', '--retry-cap=1'], $disk . '/spool.sqlite');
        $body = str_repeat('f', 20_000);
        $acknowledged = [];
        for ($i = 0; $i < 400; ++$i) {
            $answer = $relay->raw(\sprintf("POST %s HTTP/1.1\r\nContent-Length: %d\r\n\r\n%s", $origin->url("/full?id=$i"), \strlen($body), $body));
            if (!str_starts_with($answer, 'HTTP/1.1 202 ')) {
                self::assertStringStartsWith('HTTP/1.1 507 ', $answer);

                break;
            }
            $acknowledged[] = "/full?id=$i";
        }
        self::assertLessThan(400, $i, 'the disk filled up');
        // Whatever room is left goes too, as when another program fills the disk.
        $filler = fopen($disk . '/filler', 'w');
        \assert($filler !== false);
        while (@fwrite($filler, str_repeat('z', 65536)) === 65536) {
        }
        fclose($filler);
        $linesBefore = substr_count($relay->log(), "\n");
        usleep(2_000_000);
        self::assertLessThan(20, substr_count($relay->log(), "\n") - $linesBefore, 'a full disk is logged once per backoff step, not 100 times a second');

        unlink($disk . '/filler');
        $origin->answer(200);
        $delivered = $origin->awaitDelivered(\count($acknowledged), 60.0);

        $usage = new Process(['sh', '-c', 'ls -laR "$0"; df -k "$0"', $disk]);
        $usage->run();
        self::assertSame([], array_values(array_diff($acknowledged, $delivered)), 'acknowledged requests stuck; disk: ' . $usage->getOutput() . '; relay log: ' . substr($relay->log(), -1500));
        $deadline = microtime(true) + 10;
        // the spool gives the delivered rows' room back to the disk (at most once a second)
        while (!str_starts_with($answer = $relay->raw(\sprintf("POST %s HTTP/1.1\r\nContent-Length: 0\r\n\r\n", $origin->url('/after'))), 'HTTP/1.1 202 ') && microtime(true) < $deadline) {
            usleep(100_000);
        }
        $usage = new Process(['ls', '-laR', $disk]);
        $usage->run();
        self::assertStringStartsWith('HTTP/1.1 202 ', $answer, 'and new requests are taken again; disk: ' . $usage->getOutput());
        $relay->remove();
    }

    private function fillAndFallBack(string $spool): void
    {
        // A 200 ms RTT and one delivery at a time keep the spool from draining while it fills.
        $proxy = Rig::shared()->proxyTo('plain', 200);
        $relay = RelayProcess::start(['--allow-private-networks', '--max-in-flight=1', '--spool-reserve=2097152'], $spool);
        $logger = new MemoryLogger();
        $client = new Client(['relay' => $relay->address(), 'logger' => $logger, 'relay_allow_private_networks' => true]);
        $run = bin2hex(random_bytes(4));
        $body = str_repeat('x', 20_000);
        for ($i = 0; $i < 200 && $logger->contexts('Relay hand-off failed') === []; ++$i) {
            $client->dispatch($client->createRequest('POST', $proxy->url("/echo-body?run=$run&id=$i"))->withBody($client->createStream($body)));
        }
        $fellBack = $logger->contexts('Relay hand-off failed');
        self::assertNotEmpty($fellBack, 'the spool filled up');
        self::assertStringContainsString('507', (string) ($fellBack[0]['reason'] ?? '')); // @phpstan-ignore cast.string
        self::assertStringContainsString('full', (string) ($fellBack[0]['reason'] ?? '')); // @phpstan-ignore cast.string
        self::assertStringStartsWith('HTTP/1.1 200 ', $relay->raw("GET /healthz HTTP/1.1\r\n\r\n"), 'the relay keeps running');

        DeferredSends::flush();
        $nginx = Rig::shared()->nginx();
        self::assertSame($i, $nginx->awaitRequests($i, "/echo-body?run=$run&", 60.0), 'spooled ones delivered, the refused one sent by the fallback; relay log: ' . $relay->log());
        $relay->remove();
    }
}
