<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Strategy;

use WarmHttp\Bench\Scenario;
use WarmHttp\Bench\Tls;

/**
 * seeds/003's share handle (DNS, TLS sessions, connections) with a fresh easy handle per
 * request and curl_exec(), one request at a time.
 *
 * @internal bench tooling
 */
final class CurlShare implements Scenario
{
    public function name(): string
    {
        return 'curl-share';
    }

    public function label(): string
    {
        return 'curl: share handle, new easy handle per request (seeds/003)';
    }

    public function unavailableReason(): ?string
    {
        return null;
    }

    public function open(Tls $tls): \Closure
    {
        $share = self::share();

        return function (string ...$urls) use ($share, $tls): void {
            foreach ($urls as $url) {
                $handle = CurlEasy::create($url, $tls);
                curl_setopt($handle, \CURLOPT_SHARE, $share);
                curl_exec($handle);
                CurlEasy::check($handle, $this->name(), $url);
                curl_close($handle);
            }
        };
    }

    public static function share(): \CurlShareHandle
    {
        $share = curl_share_init();
        foreach ([\CURL_LOCK_DATA_DNS, \CURL_LOCK_DATA_SSL_SESSION, \CURL_LOCK_DATA_CONNECT] as $data) {
            curl_share_setopt($share, \CURLSHOPT_SHARE, $data);
        }

        return $share;
    }
}
