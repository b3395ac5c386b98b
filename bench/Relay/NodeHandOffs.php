<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

/**
 * The caller-blocked run of seeds/004's Node forwarder: how long each fsockopen hand-off
 * blocked, and what reached the destination, which the caller itself never learns.
 *
 * @internal benchmark tooling
 */
final readonly class NodeHandOffs
{
    public function __construct(
        public Latencies $latencies,
        /** Hand-offs attempted, the untimed first one included */
        public int $sent,
        /** fsockopen or fwrite failed: the request never left the caller */
        public int $failedSends,
        /** Distinct requests the destination logged within the wait */
        public int $delivered,
        /** Forwards Node logged as failed and dropped */
        public int $failedForwards,
    ) {}

    public function lost(): int
    {
        return max(0, $this->sent - $this->delivered);
    }
}
