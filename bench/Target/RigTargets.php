<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Target;

use WarmHttp\Bench\Network;
use WarmHttp\Bench\Tls;
use WarmHttp\Rig\Rig;

/**
 * The project's rig: nginx (TLS 1.3, HTTP/2) behind latency proxies adding $rttMs per round trip.
 *
 * @internal bench tooling
 */
final class RigTargets implements Targets
{
    private ?AccessLogTail $log = null;
    private ?Network $network = null;

    public function __construct(private readonly Rig $rig, private readonly float $rttMs) {}

    public function onRig(): bool
    {
        return true;
    }

    public function tls(): Tls
    {
        return new Tls($this->rig->caFile());
    }

    public function network(): Network
    {
        return $this->network ??= new Network($this->rttMs, 0.0, $this->measureHandshakeRtts());
    }

    public function describe(): string
    {
        return \sprintf(
            'rig: nginx %s TLS 1.3 + HTTP/2 behind a latency proxy adding %s ms RTT; connections counted by the proxy, TLS handshakes from nginx\'s access log ($ssl_session_reused per connection)',
            $this->nginxVersion(),
            $this->rttMs,
        );
    }

    public function open(int $origins): Target
    {
        $proxies = [];
        for ($i = 0; $i < max(1, $origins); ++$i) {
            $proxies[] = $this->rig->proxyTo('h2', $this->rttMs);
        }

        return new RigTarget($proxies, $this->log());
    }

    public function directUrl(string $path): string
    {
        return $this->rig->nginx()->url('h2', $path);
    }

    /**
     * How many round trips a new connection costs before its first request, measured rather
     * than assumed (2 with the rig proxy's simulated TCP handshake + TLS 1.3; 1 without it).
     * Best of two cold requests: the very first TLS handshake of a fresh nginx is slower.
     */
    private function measureHandshakeRtts(): int
    {
        if ($this->rttMs <= 0) {
            return 2;
        }
        $best = \PHP_INT_MAX;
        for ($i = 0; $i < 2; ++$i) {
            $proxy = $this->rig->proxyTo('h2', $this->rttMs);
            $handle = curl_init($proxy->url('/fast'));
            curl_setopt($handle, \CURLOPT_RETURNTRANSFER, true);
            curl_setopt($handle, \CURLOPT_CAINFO, $this->rig->caFile() ?: '/');
            curl_exec($handle);
            $appconnect = curl_getinfo($handle, \CURLINFO_APPCONNECT_TIME_T);
            $best = min($best, $appconnect);
            $proxy->stop();
        }

        return max(0, (int) round($best / 1000 / $this->rttMs));
    }

    private function log(): AccessLogTail
    {
        return $this->log ??= new AccessLogTail($this->rig->nginx()->dir() . '/access.log');
    }

    private function nginxVersion(): string
    {
        $version = (string) @shell_exec('nginx -v 2>&1');

        return preg_match('~nginx/([0-9.]+)~', $version, $m) === 1 ? $m[1] : '';
    }
}
