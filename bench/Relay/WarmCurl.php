<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

/**
 * One kept curl handle, warmed by a first request: each further call is 1 RTT plus what the
 * rig's proxy and nginx cost, the floor a relayed call is compared with.
 *
 * @internal benchmark tooling
 */
final class WarmCurl
{
    private readonly \CurlHandle $handle;

    /** @param non-empty-string $caFile */
    public function __construct(string $url, string $caFile)
    {
        $this->handle = curl_init($url);
        curl_setopt_array($this->handle, [\CURLOPT_RETURNTRANSFER => true, \CURLOPT_CAINFO => $caFile, \CURLOPT_HTTP_VERSION => \CURL_HTTP_VERSION_2TLS]);
        $this->callMs();
    }

    public function callMs(): float
    {
        $start = hrtime(true);
        $body = curl_exec($this->handle);
        $ms = (hrtime(true) - $start) / 1e6;
        if ($body === false || curl_getinfo($this->handle, \CURLINFO_RESPONSE_CODE) !== 200) {
            throw new \RuntimeException('The warm reference call failed: ' . curl_error($this->handle));
        }

        return $ms;
    }
}
