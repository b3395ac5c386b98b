<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Target;

use WarmHttp\Bench\BenchException;
use WarmHttp\Bench\Network;
use WarmHttp\Bench\Spread;
use WarmHttp\Bench\Strategy\CurlEasy;
use WarmHttp\Bench\Tls;

/**
 * --url: the user's endpoint. Its RTT, handshake cost and server time are measured from one
 * cold and five warm requests, since nothing is injected.
 *
 * @internal bench tooling
 */
final class UrlTargets implements Targets
{
    private ?Network $network = null;

    public function __construct(private readonly string $url, private readonly Tls $tls)
    {
        if (preg_match('~^https?://~i', $url) !== 1) {
            throw new BenchException(\sprintf('--url must be an http:// or https:// URL, got "%s".', $url));
        }
    }

    public function onRig(): bool
    {
        return false;
    }

    public function tls(): Tls
    {
        return $this->tls;
    }

    public function network(): Network
    {
        return $this->network ??= $this->calibrate();
    }

    public function describe(): string
    {
        $net = $this->network();

        return \sprintf(
            '%s: measured RTT %.1f ms (TCP connect), handshake %d RTT, server %.1f ms; connections counted only for WarmHttp rows (pool counters). Repeats after the first find WarmHttp\'s pool warm (same origin).',
            $this->url,
            $net->rttMs,
            $net->handshakeRtts,
            $net->serverMs,
        );
    }

    public function open(int $origins): Target
    {
        return new UrlTarget($this->url);
    }

    public function directUrl(string $path): ?string
    {
        return null;
    }

    private function calibrate(): Network
    {
        $handle = CurlEasy::create($this->url, $this->tls);
        $cold = self::timings($handle, $this->url);
        $rtt = max(0.01, ($cold['connect'] - $cold['dns']) / 1000);
        $handshake = (int) round((max($cold['tls'], $cold['connect']) - $cold['dns']) / 1000 / $rtt);
        $warm = [];
        for ($i = 0; $i < 5; ++$i) {
            $timings = self::timings($handle, $this->url);
            $warm[] = ($timings['firstByte'] - $timings['pretransfer']) / 1000;
        }

        return new Network($rtt, max(0.0, Spread::of($warm)->median - $rtt), $handshake);
    }

    /**
     * @return array{dns: int, connect: int, tls: int, pretransfer: int, firstByte: int} µs since the start
     */
    private static function timings(\CurlHandle $handle, string $url): array
    {
        curl_exec($handle);
        if (curl_errno($handle) !== 0) {
            throw new BenchException(\sprintf('--url %s: %s', $url, curl_error($handle)));
        }

        return [
            'dns' => curl_getinfo($handle, \CURLINFO_NAMELOOKUP_TIME_T),
            'connect' => curl_getinfo($handle, \CURLINFO_CONNECT_TIME_T),
            'tls' => curl_getinfo($handle, \CURLINFO_APPCONNECT_TIME_T),
            'pretransfer' => curl_getinfo($handle, \CURLINFO_PRETRANSFER_TIME_T),
            'firstByte' => curl_getinfo($handle, \CURLINFO_STARTTRANSFER_TIME_T),
        ];
    }
}
