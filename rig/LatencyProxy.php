<?php

declare(strict_types=1);

namespace WarmHttp\Rig;

/**
 * A TCP proxy (rig/bin/rig-proxy.php) adding rtt/2 in each direction, so each round trip through
 * it costs +rtt. Carries bytes only, so TLS passes through: https://127.0.0.1:port() reaches
 * the target with the rig certificate intact.
 *
 * A userspace proxy cannot delay the TCP handshake itself (the kernel answers the SYN), so by
 * default a new connection's first client bytes are held one extra RTT: a cold HTTPS request
 * then costs 3 RTT (TCP + TLS 1.3 + request) as on a real network, a warm one 1 RTT.
 *
 * @internal test/bench tooling
 */
final class LatencyProxy
{
    private int $baseConnections = 0;
    private int $baseBytesUp = 0;
    private int $baseBytesDown = 0;

    private function __construct(private readonly ChildProcess $child, private readonly float $rttMs, private readonly string $scheme) {}

    public static function start(string $targetHost, int $targetPort, float $rttMs, string $scheme = 'https', bool $simulateHandshake = true): self
    {
        if ($rttMs < 0) {
            throw new \InvalidArgumentException(\sprintf('rttMs must be >= 0, got %s.', $rttMs));
        }
        $child = ChildProcess::start('rig-proxy.php', [$targetHost, (string) $targetPort, (string) ($rttMs / 2), $simulateHandshake ? '1' : '0'], 'The latency proxy (rig/bin/rig-proxy.php)');

        return new self($child, $rttMs, $scheme);
    }

    public function port(): int
    {
        return $this->child->port();
    }

    public function rttMs(): float
    {
        return $this->rttMs;
    }

    public function url(string $path = '/fast'): string
    {
        return \sprintf('%s://127.0.0.1:%d/%s', $this->scheme, $this->port(), ltrim($path, '/'));
    }

    /**
     * Connections accepted since start or the last resetCounters(); recorded at accept time.
     */
    public function connections(): int
    {
        return $this->stat('connections') - $this->baseConnections;
    }

    /**
     * Bytes client→target since the last reset; flushed by the proxy at most every 50 ms.
     */
    public function bytesUp(): int
    {
        return $this->stat('bytesUp') - $this->baseBytesUp;
    }

    public function bytesDown(): int
    {
        return $this->stat('bytesDown') - $this->baseBytesDown;
    }

    public function openConnections(): int
    {
        return $this->stat('open');
    }

    public function resetCounters(): void
    {
        $this->baseConnections = $this->stat('connections');
        $this->baseBytesUp = $this->stat('bytesUp');
        $this->baseBytesDown = $this->stat('bytesDown');
    }

    public function stop(): void
    {
        $this->child->stop();
    }

    private function stat(string $key): int
    {
        $value = $this->child->stats()[$key] ?? 0;

        return \is_int($value) ? $value : 0;
    }
}
