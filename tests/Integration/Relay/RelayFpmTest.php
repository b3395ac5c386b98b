<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use WarmHttp\Rig\PhpFpm;
use WarmHttp\Rig\Rig;

/**
 * End to end: real PHP-FPM behind nginx calling an upstream through the relay. PHP-FPM throws
 * its connections away after every request; through the relay's sync mode they stay warm.
 */
final class RelayFpmTest extends TestCase
{
    public function testFpmRequestsShareTheRelaysWarmUpstreamConnection(): void
    {
        $rig = Rig::shared();
        $proxy = $rig->proxyTo('h2', 5);
        $relay = RelayProcess::start(['--allow-private-networks', '--cafile=' . $rig->caFile()]);
        $fpm = PhpFpm::start(__DIR__ . '/fpm', 3, ['WARMHTTP_RELAY' => $relay->address(), 'WARMHTTP_UPSTREAM' => rtrim($proxy->url('/'), '/')]);
        $proxy->resetCounters();

        $handle = curl_init();
        for ($i = 0; $i < 20; ++$i) {
            curl_setopt($handle, \CURLOPT_URL, 'http://127.0.0.1:' . $fpm->port() . '/sync.php');
            curl_setopt($handle, \CURLOPT_RETURNTRANSFER, true);
            curl_setopt($handle, \CURLOPT_FORBID_REUSE, true);
            self::assertSame('200 ok', curl_exec($handle), $fpm->errorLog());
        }
        self::assertSame(1, $proxy->connections(), '20 FPM requests over 3 workers, one upstream connection');
        $fpm->stop();
        $relay->remove();
    }

    public function testAnFpmEndpointDispatchesThroughTheRelay(): void
    {
        $rig = Rig::shared();
        $nginx = $rig->nginx();
        $relay = RelayProcess::start(['--allow-private-networks']);
        $fpm = PhpFpm::start(__DIR__ . '/fpm', 2, ['WARMHTTP_RELAY' => $relay->address(), 'WARMHTTP_UPSTREAM' => rtrim($nginx->url('plain', '/'), '/')]);
        $before = $nginx->requestCount('/echo-body?from=fpm');
        for ($i = 0; $i < 10; ++$i) {
            self::assertSame('dispatched', file_get_contents($fpm->url('/dispatch.php')), $fpm->errorLog());
        }
        self::assertSame($before + 10, $nginx->awaitRequests($before + 10, '/echo-body?from=fpm', 10.0));
        self::assertStringNotContainsString('hand-off failed', $fpm->errorLog());
        $fpm->stop();
        $relay->remove();
    }
}
