<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

use WarmHttp\PoolStats;

/**
 * Process-wide counters, fed by every finished transfer.
 *
 * @internal
 */
final class PoolCounters
{
    /** curl's DNS cache lifetime (CURLOPT_DNS_CACHE_TIMEOUT default), shared through the pool. */
    private const DNS_CACHE_SECONDS = 60;

    private int $requests = 0;

    private int $opened = 0;

    private int $reused = 0;

    private int $handshakes = 0;

    private int $lookups = 0;

    private int $retried = 0;

    /** @var array<string, float> host => when its cached address expires */
    private array $resolved = [];

    /** @param array<string, mixed> $info */
    public function record(string $host, array $info): void
    {
        ++$this->requests;
        $connects = \is_int($info['num_connects']) ? $info['num_connects'] : 0;
        if ($connects === 0) {
            ++$this->reused;

            return;
        }
        $this->opened += $connects;
        if (\is_int($info['appconnect_time_us']) && $info['appconnect_time_us'] > 0) {
            $this->handshakes += $connects;
        }
        $this->countLookup($host);
    }

    public function retried(): void
    {
        ++$this->retried;
    }

    /** @param int $reusedElsewhere requests on a reused connection the pool counted itself (CurlPool::sendAlone()) */
    public function snapshot(int $inFlight, int $reusedElsewhere = 0): PoolStats
    {
        return new PoolStats($this->requests + $reusedElsewhere, $this->opened, $this->reused + $reusedElsewhere, $this->handshakes, $this->lookups, $this->retried, $inFlight);
    }

    /** curl reports no cache hit, so a lookup is a new connection to a name not resolved lately. */
    private function countLookup(string $host): void
    {
        if (filter_var(trim($host, '[]'), \FILTER_VALIDATE_IP) !== false) {
            return;
        }
        $now = microtime(true);
        if (($this->resolved[$host] ?? 0.0) < $now) {
            ++$this->lookups;
            $this->resolved[$host] = $now + self::DNS_CACHE_SECONDS;
        }
    }
}
