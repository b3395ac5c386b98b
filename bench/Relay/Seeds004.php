<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use WarmHttp\Bench\BenchContext;
use WarmHttp\Bench\Row;

/**
 * seeds/004: a PHP-FPM endpoint that POSTs to a 1 s upstream, under wrk, with 10 workers and
 * 10 connections (the article's 10 JMeter threads): requests per minute when it waits for the
 * POST, and when it hands it to the relay with dispatch().
 *
 * @internal bench tooling
 */
final class Seeds004 implements RelayMeasurement
{
    private const WORKERS = 10;
    private const CONNECTIONS = 10;
    private const UPSTREAM_MS = 1000;

    public function specs(BenchContext $context): array
    {
        return [
            new RelaySpec('fpm-blocking', 'seeds/004 FPM endpoint, POST to a 1 s upstream, blocking', 'req/min'),
            new RelaySpec('warmhttp-fpm-dispatch', 'seeds/004 FPM endpoint, POST with dispatch()', 'req/min'),
        ];
    }

    public function missing(): ?string
    {
        return Requirements::wrk() ?? Requirements::fpm() ?? Requirements::relay();
    }

    public function measure(BenchContext $context, RelaySizes $sizes): array
    {
        $runs = (new FpmBench())->seeds004(self::WORKERS, self::CONNECTIONS, $sizes->wrkSeconds, self::UPSTREAM_MS);
        [$blocking, $dispatch] = $this->specs($context);

        return [$this->row($blocking, $runs['blocking'], $sizes), $this->row($dispatch, $runs['dispatch'], $sizes)];
    }

    private function row(RelaySpec $spec, WrkResult $run, RelaySizes $sizes): Row
    {
        $extra = [
            'wrkRequests' => $run->requests,
            'wrkSeconds' => $sizes->wrkSeconds,
            'latencyAvg' => $run->latency,
            'errors' => $run->errors,
            'fallbacks' => $run->fallbacks,
            'workers' => self::WORKERS,
            'connections' => self::CONNECTIONS,
            'upstreamMs' => self::UPSTREAM_MS,
            // The request count shows the granularity: with a 1 s upstream a short run counts few.
            'note' => \sprintf('%d requests in %d s · latency %s · %d errors', $run->requests, $sizes->wrkSeconds, $run->latency, $run->errors) . ($run->fallbacks > 0 ? \sprintf(' · %d fell back', $run->fallbacks) : ''),
        ];

        return $spec->measured($run->requestsPerMinute, $run->requestsPerMinute, $run->requestsPerMinute, $run->requests, $extra);
    }
}
