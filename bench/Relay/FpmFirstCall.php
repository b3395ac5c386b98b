<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use WarmHttp\Bench\BenchContext;

/**
 * The one upstream call of a PHP-FPM request at the bench RTT, timed inside the endpoint:
 * through the relay's sync mode (warm: 1 RTT is the limit) against a new client (cold: the
 * handshake comes first). The sync row carries, in its note and extra, the floor (a warm call
 * through the same rig), the relay's share (relay-only: the same request written by hand on
 * the kept relay socket, no Client), the hop floor (those bytes to a minimal forwarder process
 * instead of the relay, HopFloor: the least any process hop adds) and the same call in a pool
 * with opcache.preload (fpm-preload.php: what the docs' preload advice is worth).
 *
 * @internal bench tooling
 */
final class FpmFirstCall implements RelayMeasurement
{
    public function specs(BenchContext $context): array
    {
        return [
            new RelaySpec('warmhttp-sync-first-call', 'FPM request, first call through relay_sync', 'ms'),
            new RelaySpec('cold-first-call', 'FPM request, first call with a new Client (cold)', 'ms'),
        ];
    }

    public function missing(): ?string
    {
        return Requirements::fpm() ?? Requirements::relay();
    }

    public function measure(BenchContext $context, RelaySizes $sizes): array
    {
        $network = $context->targets->network();
        $result = (new FpmBench())->firstCall($sizes->fpmRequests, $network->rttMs);
        [$sync, $cold] = $this->specs($context);
        $floor = round($result->warmFloor->p50, 2);
        $preload = $result->preloadedSync;
        $syncExtra = self::extra($result->sync) + [
            'warmFloorMs' => $floor,
            'preloadP50' => round($preload->p50, 3),
            'preloadP99' => round($preload->p99, 3),
            'relayOnlyP50' => round($result->relayOnly->p50, 3),
            'hopFloorMs' => round($result->hopFloor->p50, 3),
            'note' => \sprintf('warm curl through the rig: %.1f ms; hop floor (a minimal forwarder): %.1f ms; relay only (no Client): %.1f ms; with opcache.preload %.1f ms', $floor, $result->hopFloor->p50, $result->relayOnly->p50, $preload->p50),
        ];
        $coldLimit = $network->handshakeMs() + $network->rttMs;

        return [
            $sync->measured($result->sync->min, $result->sync->p50, $result->sync->max, $result->sync->n, $syncExtra, $result->syncUpstreamConnections, $network->rttMs, '1 × RTT (one exchange on a warm connection)'),
            $cold->measured($result->cold->min, $result->cold->p50, $result->cold->max, $result->cold->n, self::extra($result->cold), $result->coldUpstreamConnections, $coldLimit, \sprintf('%d RTT handshake + 1 × RTT', $network->handshakeRtts)),
        ];
    }

    /** @return array<string, float|int> */
    private static function extra(Latencies $l): array
    {
        return ['p50' => round($l->p50, 3), 'p99' => round($l->p99, 3), 'samples' => $l->n];
    }
}
