<?php

declare(strict_types=1);

namespace WarmHttp\Bench;

/**
 * The work a row does and the best any client could do it in: the physical limit. The limit
 * belongs to the work, not the strategy, so the naive row and the best row share it.
 *
 * @internal bench tooling
 */
final readonly class Shape
{
    private function __construct(
        public ShapeKind $kind,
        public int $requests,
        public int $origins = 1,
        public int $hostCap = 0,
        public int $perTask = 0,
    ) {}

    /** N requests one after another: one handshake per origin, then N exchanges. */
    public static function sequential(int $requests, int $origins = 1): self
    {
        return new self(ShapeKind::Sequential, $requests, $origins);
    }

    /** N requests at once, multiplexed: one handshake (origins in parallel), one exchange. */
    public static function parallelH2(int $requests, int $origins = 1): self
    {
        return new self(ShapeKind::ParallelH2, $requests, $origins);
    }

    /** N requests over HTTP/1.1 with at most $hostCap connections per origin. */
    public static function parallelH1(int $requests, int $hostCap, int $origins = 1): self
    {
        return new self(ShapeKind::ParallelH1, $requests, $origins, $hostCap);
    }

    /** Tasks running side by side, each making $perTask requests in a row, multiplexed. */
    public static function tasks(int $requests, int $perTask): self
    {
        return new self(ShapeKind::Tasks, $requests, 1, 0, $perTask);
    }

    public function limitMs(Network $net): float
    {
        return match ($this->kind) {
            ShapeKind::Sequential => $this->origins * $net->handshakeMs() + $this->requests * $net->exchangeMs(),
            ShapeKind::ParallelH2 => $net->handshakeMs() + $net->exchangeMs(),
            ShapeKind::ParallelH1 => $net->handshakeMs() + $this->waves() * $net->exchangeMs(),
            ShapeKind::Tasks => $net->handshakeMs() + $this->perTask * $net->exchangeMs(),
        };
    }

    /** The limit as a formula a person can check, e.g. "1 RTT + 50 × (RTT + server)". */
    public function formula(Network $net): string
    {
        $handshake = $net->handshakeRtts;

        return match ($this->kind) {
            ShapeKind::Sequential => \sprintf('%d×%d RTT + %d × (RTT + server)', $this->origins, $handshake, $this->requests),
            ShapeKind::ParallelH2 => \sprintf('%d RTT + 1 × (RTT + server)', $handshake),
            ShapeKind::ParallelH1 => \sprintf('%d RTT + ⌈%d/%d⌉ × (RTT + server)', $handshake, $this->requests, $this->hostCap * $this->origins),
            ShapeKind::Tasks => \sprintf('%d RTT + %d × (RTT + server)', $handshake, $this->perTask),
        };
    }

    private function waves(): int
    {
        return (int) ceil($this->requests / max(1, $this->hostCap * $this->origins));
    }
}
