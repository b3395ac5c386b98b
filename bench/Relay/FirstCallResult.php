<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

/**
 * The first (and only) upstream call of an FPM request, in ms: through the relay's sync mode
 * (in a plain pool, and in one with opcache.preload), with a new client (cold), and the floor:
 * a warm call from a kept curl handle through an identical proxy, which is 1 RTT plus what the
 * rig's proxy itself costs.
 *
 * @internal benchmark tooling
 */
final readonly class FirstCallResult
{
    public function __construct(
        public Latencies $sync,
        public Latencies $cold,
        public Latencies $warmFloor,
        public int $syncUpstreamConnections,
        public int $coldUpstreamConnections,
        public Latencies $preloadedSync,
        /** The relay's share: the request written by hand on the worker's kept relay socket, no Client. */
        public Latencies $relayOnly,
    ) {}
}
