<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Strategy;

/**
 * Whether the peer libraries compared against are installed; they are dev dependencies.
 *
 * @internal bench tooling
 */
final class Peers
{
    public static function guzzleMissing(): ?string
    {
        return class_exists(\GuzzleHttp\Client::class) ? null : 'guzzlehttp/guzzle is not installed (composer require --dev guzzlehttp/guzzle)';
    }

    public static function symfonyMissing(): ?string
    {
        return class_exists(\Symfony\Component\HttpClient\CurlHttpClient::class) ? null : 'symfony/http-client is not installed (composer require --dev symfony/http-client)';
    }

    /** @return array<string, mixed> */
    public static function guzzleOptions(\WarmHttp\Bench\Tls $tls): array
    {
        return ['verify' => $tls->verify ? ($tls->caFile ?? true) : false, 'http_errors' => false, 'timeout' => 30];
    }

    /** @return array<string, mixed> */
    public static function symfonyOptions(\WarmHttp\Bench\Tls $tls): array
    {
        return ['verify_peer' => $tls->verify, 'verify_host' => $tls->verify, 'cafile' => $tls->caFile, 'timeout' => 30];
    }
}
