<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Strategy;

use WarmHttp\Bench\Scenario;
use WarmHttp\Bench\Tls;

/**
 * seeds/002: a fresh easy handle per request (no option leakage), run one at a time through one
 * multi handle, whose connection cache keeps the connection.
 *
 * @internal bench tooling
 */
final class CurlMultiCache implements Scenario
{
    public function name(): string
    {
        return 'curl-multi-cache';
    }

    public function label(): string
    {
        return 'curl: multi handle as connection cache (seeds/002)';
    }

    public function unavailableReason(): ?string
    {
        return null;
    }

    public function open(Tls $tls): \Closure
    {
        $multi = curl_multi_init();

        return function (string ...$urls) use ($multi, $tls): void {
            foreach ($urls as $url) {
                $handle = CurlEasy::create($url, $tls);
                curl_multi_add_handle($multi, $handle);
                $results = MultiLoop::run($multi);
                CurlEasy::check($handle, $this->name(), $url, $results[spl_object_id($handle)] ?? 0);
                curl_multi_remove_handle($multi, $handle);
                curl_close($handle);
            }
        };
    }
}
