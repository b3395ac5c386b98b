<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use Symfony\Component\Process\Process;
use WarmHttp\Client;
use WarmHttp\Relay\App\DeferredSends;
use WarmHttp\Rig\Rig;
use WarmHttp\Rig\TempDir;

/**
 * The spool on a 4 MiB tmpfs: once it is full the relay answers 507 and dispatch falls back.
 */
final class RelayFullDiskTest extends TestCase
{
    public function testAFullSpoolDiskMakesDispatchFallBackNotLose(): void
    {
        $mount = TempDir::create('relay-tmpfs');
        $mounted = new Process(['mount', '-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', $mount->path()]);
        $mounted->run();
        if (!$mounted->isSuccessful()) {
            $mount->remove();
            self::markTestSkipped('Needs root to mount a small tmpfs (mount -t tmpfs -o size=4m): ' . trim($mounted->getErrorOutput()));
        }
        try {
            $this->fillAndFallBack($mount->path() . '/spool.sqlite');
        } finally {
            (new Process(['umount', '-l', $mount->path()]))->run();
            $mount->remove();
        }
    }

    private function fillAndFallBack(string $spool): void
    {
        // A 200 ms RTT and one delivery at a time keep the spool from draining while it fills.
        $proxy = Rig::shared()->proxyTo('plain', 200);
        $relay = RelayProcess::start(['--allow-private-networks', '--max-in-flight=1', '--spool-reserve=2097152'], $spool);
        $logger = new MemoryLogger();
        $client = new Client(['relay' => $relay->address(), 'logger' => $logger]);
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
