<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

/**
 * The first (and only) upstream call of an FPM request, in ms: through the relay's sync mode
 * (in a plain pool, and in one with opcache.preload), with a new client (cold), and two floors:
 * a warm call from a kept curl handle through an identical proxy, which is 1 RTT plus what the
 * rig's proxy itself costs, and the hop floor, that call made by a minimal forwarder process
 * the FPM request writes to (HopFloor): what any extra process hop adds on this machine.
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
        /** The hop floor: the same bytes on a kept socket to a minimal forwarder (HopFloor), no relay. */
        public Latencies $hopFloor,
    ) {}
}
