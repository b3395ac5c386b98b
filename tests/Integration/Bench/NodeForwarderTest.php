<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bench;

use PHPUnit\Framework\TestCase;
use WarmHttp\Bench\Relay\FsockopenHandOff;
use WarmHttp\Bench\Relay\NodeBench;
use WarmHttp\Bench\Relay\NodeForwarder;
use WarmHttp\Bench\Relay\OriginLog;
use WarmHttp\Rig\Rig;

/**
 * seeds/004's Node forwarder as the bench runs it (bench/node/forwarder.js, Express from
 * bench/node's lock file): what it is handed with fsockopen reaches the destination, the
 * caller's time is measured, a kill -9 loses what it held, and without Node or its packages
 * the rows say how to get them.
 */
final class NodeForwarderTest extends TestCase
{
    public function testWhatItIsHandedReachesTheDestination(): void
    {
        $missing = NodeForwarder::missing();
        if ($missing !== null) {
            self::markTestSkipped($missing);
        }

        $run = (new NodeBench())->handOffs(20, 5.0);

        self::assertSame(20, $run->latencies->n);
        self::assertSame(21, $run->sent, 'the untimed first hand-off is sent too');
        self::assertSame(0, $run->failedSends);
        self::assertSame(21, $run->delivered, 'counted at the origin by id');
        self::assertSame(0, $run->lost());
    }

    /**
     * The claim beside its rows: a kill -9 loses what Node took and had not yet sent. Through a
     * 300 ms-RTT TLS upstream a request waits in Node's memory for its connection's handshakes;
     * killed meanwhile, none arrives, and the callers had all "succeeded". (The relay's side,
     * every acknowledged dispatch delivered across a SIGKILL: RelayDurabilityTest.)
     */
    public function testAKillMinus9LosesWhatItHadTaken(): void
    {
        $missing = NodeForwarder::missing();
        if ($missing !== null) {
            self::markTestSkipped($missing);
        }
        $rig = Rig::shared();
        $proxy = $rig->proxyTo('h2', 300);
        $node = NodeForwarder::start($proxy->url('/echo-body'), $rig->caFile());
        $run = bin2hex(random_bytes(4));
        $origin = OriginLog::follow($rig->nginx(), 'kill=' . $run . '&');
        for ($i = 0; $i < 10; ++$i) {
            self::assertTrue(FsockopenHandOff::send($node->url(\sprintf('/prod?kill=%s&id=%d', $run, $i)), '{"n":1}'), 'every hand-off left the caller');
        }
        usleep(100_000);
        $node->kill();

        self::assertNull($origin->await(1, 2.0), 'nothing reached the destination');
        self::assertSame(0, $origin->distinct());
    }

    public function testWithoutItsPackagesTheReasonNamesTheSetupCommand(): void
    {
        $reason = NodeForwarder::missing(sys_get_temp_dir() . '/no-such-forwarder-dir');

        self::assertNotNull($reason);
        self::assertStringContainsString('npm ci --prefix bench/node', $reason);
    }
}
