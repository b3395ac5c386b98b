<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Strategy;

use WarmHttp\Bench\Scenario;
use WarmHttp\Bench\Tls;

/**
 * One easy handle for every request: its own connection cache keeps the connection (seeds/000),
 * at the price of options leaking from one request to the next (seeds/002).
 *
 * @internal bench tooling
 */
final class CurlReused implements Scenario
{
    public function name(): string
    {
        return 'curl-reused';
    }

    public function label(): string
    {
        return 'curl: one easy handle reused';
    }

    public function unavailableReason(): ?string
    {
        return null;
    }

    public function open(Tls $tls): \Closure
    {
        $handle = CurlEasy::create('', $tls);

        return function (string ...$urls) use ($handle): void {
            foreach ($urls as $url) {
                curl_setopt($handle, \CURLOPT_URL, $url === '' ? '/' : $url);
                curl_exec($handle);
                CurlEasy::check($handle, $this->name(), $url);
            }
        };
    }
}
