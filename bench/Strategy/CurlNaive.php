<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Strategy;

use WarmHttp\Bench\Scenario;
use WarmHttp\Bench\Tls;

/**
 * The common way: curl_init() per request and close it, so every request opens a connection.
 *
 * @internal bench tooling
 */
final class CurlNaive implements Scenario
{
    public function name(): string
    {
        return 'curl-naive';
    }

    public function label(): string
    {
        return 'curl: new handle per request';
    }

    public function unavailableReason(): ?string
    {
        return null;
    }

    public function open(Tls $tls): \Closure
    {
        return function (string ...$urls) use ($tls): void {
            foreach ($urls as $url) {
                $handle = CurlEasy::create($url, $tls);
                curl_exec($handle);
                CurlEasy::check($handle, $this->name(), $url);
                curl_close($handle);
            }
        };
    }
}
