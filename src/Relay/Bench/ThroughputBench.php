<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Bench;

use WarmHttp\Internal\Relay\Spool;
use WarmHttp\Internal\Relay\SpooledRequest;
use WarmHttp\Rig\Rig;
use WarmHttp\Rig\TempDir;

/**
 * Delivery throughput: a spool pre-filled with N requests, a relay started on it, and the time
 * until the origin has logged all N (counted at nginx, so "none lost" is checked too).
 *
 * @internal benchmark tooling
 */
final class ThroughputBench
{
    /** @return array{deliveries: int, seconds: float, deliveries_per_second: float, delivered_at_origin: int, lost: int} */
    public function deliveries(int $count = 10000, float $rttMs = 20.0, int $maxPerHost = 256): array
    {
        $rig = Rig::shared();
        $proxy = $rig->proxyTo('h2', $rttMs);
        $run = bin2hex(random_bytes(4));
        $dir = TempDir::create('bench-relay');
        $spool = Spool::open(BenchRelay::spoolIn($dir), false);
        $now = microtime(true);
        $batch = [];
        for ($i = 0; $i < $count; ++$i) {
            $batch[] = new SpooledRequest(0, 'POST', $proxy->url("/echo-body?tp=$run&id=$i"), [['Content-Type', 'application/json']], '{"n":' . $i . '}', bin2hex(random_bytes(8)), 0, $now);
        }
        $spool->commit($batch);
        unset($spool, $batch);

        $start = microtime(true);
        $relay = BenchRelay::start(['--allow-private-networks', '--cafile=' . $rig->caFile(), '--max-per-host=' . $maxPerHost, '--max-in-flight=' . $maxPerHost], $dir);
        while ($relay->metric('delivered_total') < $count && microtime(true) - $start < 120) {
            usleep(20_000);
        }
        $seconds = microtime(true) - $start;
        $atOrigin = $rig->nginx()->awaitRequests($count, "/echo-body?tp=$run&", 10.0);

        return [
            'deliveries' => $count,
            'seconds' => round($seconds, 3),
            'deliveries_per_second' => round($count / $seconds),
            'delivered_at_origin' => $atOrigin,
            'lost' => max(0, $count - $atOrigin),
        ];
    }
}
