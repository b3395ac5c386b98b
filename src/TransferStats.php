<?php

declare(strict_types=1);

namespace WarmHttp;

/**
 * Where the time of one request went, in milliseconds from the start of the transfer.
 * A reused connection shows 0 for DNS, connect and TLS: that is the saving.
 */
final readonly class TransferStats
{
    public function __construct(
        public float $dnsMs,
        public float $connectMs,
        public float $tlsMs,
        public float $firstByteMs,
        public float $totalMs,
        public string $httpVersion,
        public bool $reusedConnection,
        public string $remoteAddress,
        public int $redirects = 0,
    ) {}

    /**
     * Built from curl_getinfo(): curl reports cumulative times, split here into phases.
     *
     * @param array<string, mixed> $info
     */
    public static function fromCurlInfo(array $info): self
    {
        $lookup = self::ms($info, 'namelookup_time_us');
        $connect = max($lookup, self::ms($info, 'connect_time_us'));
        $app = self::ms($info, 'appconnect_time_us');

        return new self(
            dnsMs: $lookup,
            connectMs: $connect - $lookup,
            tlsMs: $app > 0 ? $app - $connect : 0.0,
            firstByteMs: self::ms($info, 'starttransfer_time_us'),
            totalMs: self::ms($info, 'total_time_us'),
            httpVersion: self::version(\is_int($info['http_version'] ?? null) ? $info['http_version'] : 0),
            reusedConnection: ($info['num_connects'] ?? 0) === 0,
            remoteAddress: \is_string($info['primary_ip'] ?? null) ? $info['primary_ip'] . ':' . (\is_int($info['primary_port'] ?? null) ? $info['primary_port'] : 0) : '',
            redirects: \is_int($info['redirect_count'] ?? null) ? $info['redirect_count'] : 0,
        );
    }

    /** @param array<string, mixed> $info */
    private static function ms(array $info, string $key): float
    {
        $value = $info[$key] ?? 0;

        return \is_int($value) ? $value / 1000 : 0.0;
    }

    private static function version(int $curlVersion): string
    {
        return match ($curlVersion) {
            \CURL_HTTP_VERSION_1_0 => '1.0',
            \CURL_HTTP_VERSION_1_1 => '1.1',
            \CURL_HTTP_VERSION_2_0 => '2',
            30 => '3', // CURL_HTTP_VERSION_3
            default => '',
        };
    }
}
