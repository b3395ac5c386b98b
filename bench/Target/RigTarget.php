<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Target;

use WarmHttp\Rig\LatencyProxy;

/**
 * One run's origins on the rig: fresh latency proxies in front of nginx's TLS 1.3 + h2
 * listener. A new port is a new origin to every client, WarmHttp's process-wide pool
 * included, so each run starts cold. Two proxies count as two origins.
 *
 * @internal bench tooling
 */
final class RigTarget implements Target
{
    /**
     * @param non-empty-list<LatencyProxy> $proxies
     */
    public function __construct(private readonly array $proxies, private readonly AccessLogTail $log) {}

    public function urls(int $count, string $path, string $tag): array
    {
        $tagged = $path . (str_contains($path, '?') ? '&' : '?') . 'bench=' . rawurlencode($tag);
        $urls = [];
        for ($i = 0; $i < $count; ++$i) {
            $urls[] = $this->proxies[$i % \count($this->proxies)]->url($tagged);
        }

        return $urls;
    }

    /** Counted by the proxies at accept time. */
    public function connections(): int
    {
        return array_sum(array_map(static fn(LatencyProxy $proxy): int => $proxy->connections(), $this->proxies));
    }

    public function handshakes(string $tag, int $requests): array
    {
        return $this->log->handshakes($tag, $requests);
    }

    public function close(): void
    {
        foreach ($this->proxies as $proxy) {
            $proxy->stop();
        }
    }
}
