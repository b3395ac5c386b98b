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
    /** @param string|null $acceptEncoding CURLOPT_ACCEPT_ENCODING: ask for these codings and decode them, as WarmHttp does by default */
    public function __construct(private readonly ?string $acceptEncoding = null) {}

    public function name(): string
    {
        return 'curl-reused';
    }

    public function label(): string
    {
        return $this->acceptEncoding === null ? 'curl: one easy handle reused' : \sprintf('curl: one easy handle reused (Accept-Encoding: %s, as WarmHttp asks)', $this->acceptEncoding);
    }

    public function unavailableReason(): ?string
    {
        return null;
    }

    public function open(Tls $tls): \Closure
    {
        $handle = CurlEasy::create('', $tls);
        if ($this->acceptEncoding !== null) {
            curl_setopt($handle, \CURLOPT_ACCEPT_ENCODING, $this->acceptEncoding);
        }

        return function (string ...$urls) use ($handle): void {
            foreach ($urls as $url) {
                curl_setopt($handle, \CURLOPT_URL, $url === '' ? '/' : $url);
                curl_exec($handle);
                CurlEasy::check($handle, $this->name(), $url);
            }
        };
    }
}
