<?php

declare(strict_types=1);

namespace WarmHttp;

/**
 * Counters of the process-wide pool since it was created (a forked child starts at zero).
 */
final readonly class PoolStats
{
    public function __construct(
        public int $requests,
        public int $connectionsOpened,
        public int $connectionsReused,
        public int $tlsHandshakes,
        public int $dnsLookups,
        public int $retriedOnDeadConnection,
        public int $inFlight,
    ) {}

    /** @return array<string, int> */
    public function toArray(): array
    {
        return [
            'requests' => $this->requests,
            'connectionsOpened' => $this->connectionsOpened,
            'connectionsReused' => $this->connectionsReused,
            'tlsHandshakes' => $this->tlsHandshakes,
            'dnsLookups' => $this->dnsLookups,
            'retriedOnDeadConnection' => $this->retriedOnDeadConnection,
            'inFlight' => $this->inFlight,
        ];
    }
}
