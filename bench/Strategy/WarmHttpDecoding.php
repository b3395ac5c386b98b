<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Strategy;

use WarmHttp\Bench\BenchException;
use WarmHttp\Bench\Scenario;
use WarmHttp\Bench\Tls;
use WarmHttp\Client;

/**
 * WarmHttp's sendRequest() with its default decode_content (Accept-Encoding: gzip, decoded by
 * libcurl as it streams in), or with decode_content => false.
 *
 * @internal bench tooling
 */
final class WarmHttpDecoding implements Scenario
{
    /** @param int $decodedBytes the size every answer must have once decoded */
    public function __construct(private readonly bool $decode, private readonly int $decodedBytes) {}

    public function name(): string
    {
        return $this->decode ? 'warmhttp-gzip' : 'warmhttp-identity';
    }

    public function label(): string
    {
        return $this->decode ? 'WarmHttp, default decode_content (gzip)' : 'WarmHttp, decode_content => false';
    }

    public function unavailableReason(): ?string
    {
        return null;
    }

    public function open(Tls $tls): \Closure
    {
        $client = new Client(['decode_content' => $this->decode] + WarmHttpOptions::for($tls));

        return function (string ...$urls) use ($client): void {
            foreach ($urls as $url) {
                $response = $client->sendRequest($client->createRequest('GET', $url));
                WarmHttpOptions::check($response, $this->name(), $url);
                $size = $response->getBody()->getSize();
                if ($size !== $this->decodedBytes) {
                    throw new BenchException(\sprintf('Scenario %s: %s gave %s bytes, expected %d decoded.', $this->name(), $url, var_export($size, true), $this->decodedBytes));
                }
            }
        };
    }
}
