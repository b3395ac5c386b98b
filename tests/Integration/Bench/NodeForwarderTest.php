<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bench;

use PHPUnit\Framework\TestCase;
use WarmHttp\Bench\Relay\NodeBench;
use WarmHttp\Bench\Relay\NodeForwarder;

/**
 * seeds/004's Node forwarder as the bench runs it (bench/node/forwarder.js, Express from
 * bench/node's lock file): what it is handed with fsockopen reaches the destination, the
 * caller's time is measured, and without Node or its packages the rows say how to get them.
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

    public function testWithoutItsPackagesTheReasonNamesTheSetupCommand(): void
    {
        $reason = NodeForwarder::missing(sys_get_temp_dir() . '/no-such-forwarder-dir');

        self::assertNotNull($reason);
        self::assertStringContainsString('npm ci --prefix bench/node', $reason);
    }
}
