<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use WarmHttp\Rig\Rig;

/**
 * Delivery throughput: $count POSTs handed to a fresh relay through its socket by many callers
 * at once, and the time from the first hand-off until nginx has logged every one of them, so
 * the relay accepts and delivers at the same time, as in production. Counted at the origin by
 * distinct id: "lost" and "duplicates" are what the destination saw, not what the relay says.
 *
 * @internal benchmark tooling
 */
final class ThroughputBench
{
    /** Callers handing off at once: enough for group commit to batch, as a busy FPM pool would. */
    private const CALLERS = 32;

    public function deliveries(int $count, float $rttMs, int $maxPerHost): ThroughputResult
    {
        $rig = Rig::shared();
        $proxy = $rig->proxyTo('h2', $rttMs);
        $run = bin2hex(random_bytes(4));
        $requests = [];
        for ($i = 0; $i < $count; ++$i) {
            $requests[] = RelayLoad::request($proxy->url(\sprintf('/echo-body?tp=%s&id=%d', $run, $i)), '{"n":' . $i . '}');
        }
        $relay = BenchRelay::start(['--allow-private-networks', '--cafile=' . $rig->caFile(), '--max-per-host=' . $maxPerHost, '--max-in-flight=' . max(512, $maxPerHost)], oneCore: true);
        try {
            $origin = OriginLog::follow($rig->nginx(), 'tp=' . $run . '&');
            $cpuBefore = $relay->cpuSeconds();
            $start = microtime(true);
            $handOff = RelayLoad::send($relay->socketPath(), $requests, self::CALLERS, 60.0);
            $accepted = microtime(true);
            if ($handOff['accepted'] === 0) {
                throw new \RuntimeException('The relay accepted none of the hand-offs: ' . $handOff['lastRefusal']);
            }
            $done = $origin->await($handOff['accepted'], max(30.0, $count / 500)) ?? microtime(true);
            $cpuAfter = $relay->cpuSeconds();

            return new ThroughputResult(
                $count,
                $handOff['accepted'],
                $handOff['refused'],
                $accepted - $start,
                $done - $start,
                $origin->distinct(),
                $origin->requests() - $origin->distinct(),
                ThroughputResult::cpuUsed($cpuBefore, $cpuAfter),
                $relay->pinnedCpu,
                $proxy->connections(),
            );
        } finally {
            $relay->stop();
        }
    }
}
