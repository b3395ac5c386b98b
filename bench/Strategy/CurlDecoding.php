<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Strategy;

use WarmHttp\Bench\BenchException;
use WarmHttp\Bench\Scenario;
use WarmHttp\Bench\Tls;

/**
 * Raw curl, one easy handle reused, asking for gzip and decoding it itself
 * (CURLOPT_ACCEPT_ENCODING), or asking for nothing: the floor for a compressed answer.
 *
 * @internal bench tooling
 */
final class CurlDecoding implements Scenario
{
    /** @param int $decodedBytes the size every answer must have once decoded */
    public function __construct(
        private readonly ?string $acceptEncoding,
        private readonly int $decodedBytes,
    ) {}

    public function name(): string
    {
        return $this->acceptEncoding === null ? 'curl-identity' : 'curl-' . $this->acceptEncoding;
    }

    public function label(): string
    {
        return $this->acceptEncoding === null ? 'curl: one easy handle, uncompressed' : \sprintf('curl: one easy handle, %s decoded by libcurl', $this->acceptEncoding);
    }

    public function unavailableReason(): ?string
    {
        return null;
    }

    public function open(Tls $tls): \Closure
    {
        $handle = CurlEasy::create('', $tls);
        $accept = $this->acceptEncoding;
        if ($accept !== null && $accept !== '') {
            curl_setopt($handle, \CURLOPT_ACCEPT_ENCODING, $accept);
        }

        return function (string ...$urls) use ($handle): void {
            foreach ($urls as $url) {
                curl_setopt($handle, \CURLOPT_URL, $url === '' ? '/' : $url);
                $body = curl_exec($handle);
                CurlEasy::check($handle, $this->name(), $url);
                if (!\is_string($body) || \strlen($body) !== $this->decodedBytes) {
                    throw new BenchException(\sprintf('Scenario %s: %s gave %s bytes, expected %d decoded.', $this->name(), $url, \is_string($body) ? \strlen($body) : 'no', $this->decodedBytes));
                }
            }
        };
    }
}
