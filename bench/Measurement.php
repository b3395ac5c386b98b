<?php

declare(strict_types=1);

namespace WarmHttp\Bench;

/**
 * One timed run of a trial and what it cost on the wire. Null counts: not observable here
 * (no rig proxy or access log in --url mode).
 *
 * @internal bench tooling
 */
final readonly class Measurement
{
    public function __construct(
        public float $ms,
        public ?int $connections,
        public ?int $tlsFull,
        public ?int $tlsResumed,
        public int $poolConnections,
        public int $poolHandshakes,
    ) {}
}
