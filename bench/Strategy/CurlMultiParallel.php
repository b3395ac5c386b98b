<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Strategy;

use WarmHttp\Bench\Scenario;
use WarmHttp\Bench\Tls;

/**
 * seeds/003 by hand: every request added to one multi handle at once. "plain" is the article's
 * starting point (no share handle, curl's defaults); "share-h2" its fix (share handle, HTTP/2,
 * 20 connections per host).
 *
 * @internal bench tooling
 */
final class CurlMultiParallel implements Scenario
{
    private function __construct(private readonly bool $share, private readonly ?int $httpVersion, private readonly ?int $hostCap) {}

    public static function plain(): self
    {
        return new self(false, null, null);
    }

    public static function shareH2(): self
    {
        return new self(true, \CURL_HTTP_VERSION_2_0, 20);
    }

    public function name(): string
    {
        return $this->share ? 'curl-multi-share-h2' : 'curl-multi-plain';
    }

    public function label(): string
    {
        return $this->share ? 'curl multi + share handle, HTTP/2, cap 20 (seeds/003 after)' : 'curl multi, defaults, no share (seeds/003 before)';
    }

    public function unavailableReason(): ?string
    {
        return null;
    }

    public function open(Tls $tls): \Closure
    {
        $multi = curl_multi_init();
        if ($this->hostCap !== null) {
            curl_multi_setopt($multi, \CURLMOPT_MAX_HOST_CONNECTIONS, $this->hostCap);
        }
        $share = $this->share ? CurlShare::share() : null;

        return function (string ...$urls) use ($multi, $share, $tls): void {
            $handles = [];
            foreach ($urls as $url) {
                $handle = CurlEasy::create($url, $tls, $this->httpVersion);
                if ($share !== null) {
                    curl_setopt($handle, \CURLOPT_SHARE, $share);
                }
                curl_multi_add_handle($multi, $handle);
                $handles[$url . '#' . \count($handles)] = $handle;
            }
            $results = MultiLoop::run($multi);
            foreach ($handles as $key => $handle) {
                CurlEasy::check($handle, $this->name(), (string) strstr($key, '#', true), $results[spl_object_id($handle)] ?? 0);
                curl_multi_remove_handle($multi, $handle);
            }
        };
    }
}
