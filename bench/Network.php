<?php

declare(strict_types=1);

namespace WarmHttp\Bench;

/**
 * What the physical limit is computed from: the round-trip time, the server's own time per
 * request, and how many round trips a new connection costs before its first request
 * (TCP 1 + TLS 1.3 1 on a real network; measured, see Calibration).
 *
 * @internal bench tooling
 */
final readonly class Network
{
    public function __construct(
        public float $rttMs,
        public float $serverMs,
        public int $handshakeRtts,
    ) {}

    public function withServerMs(float $serverMs): self
    {
        return new self($this->rttMs, $serverMs, $this->handshakeRtts);
    }

    public function handshakeMs(): float
    {
        return $this->handshakeRtts * $this->rttMs;
    }

    /** One request on a warm connection: the request/response round trip plus the server. */
    public function exchangeMs(): float
    {
        return $this->rttMs + $this->serverMs;
    }

    /** @return array{rttMs: float, serverMs: float, handshakeRtts: int} */
    public function toArray(): array
    {
        return ['rttMs' => $this->rttMs, 'serverMs' => $this->serverMs, 'handshakeRtts' => $this->handshakeRtts];
    }
}
