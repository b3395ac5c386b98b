<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

use WarmHttp\Exception\InvalidOptionException;

/**
 * The `tls_min` and `tls_max` options: the TLS versions a handshake may settle on, as
 * CURLOPT_SSLVERSION's floor and ceiling. libcurl 7.88 keys its connection cache on the
 * version range too (Curl_ssl_config_matches compares version and version_max), so Clients
 * with different ranges never share a connection: the pool needs no partition for them.
 *
 * @internal
 */
final class TlsVersions
{
    private const FLOORS = ['1.0' => \CURL_SSLVERSION_TLSv1_0, '1.1' => \CURL_SSLVERSION_TLSv1_1, '1.2' => \CURL_SSLVERSION_TLSv1_2, '1.3' => \CURL_SSLVERSION_TLSv1_3];
    private const CEILINGS = ['1.0' => \CURL_SSLVERSION_MAX_TLSv1_0, '1.1' => \CURL_SSLVERSION_MAX_TLSv1_1, '1.2' => \CURL_SSLVERSION_MAX_TLSv1_2, '1.3' => \CURL_SSLVERSION_MAX_TLSv1_3];

    public static function check(string $name, mixed $value): string
    {
        if (\is_string($value) && isset(self::FLOORS[$value])) {
            return $value;
        }

        throw Options::wrong($name, '"1.0", "1.1", "1.2" or "1.3"', $value);
    }

    public static function checkRange(mixed $min, mixed $max): void
    {
        if (\is_string($min) && \is_string($max) && version_compare($min, $max, '>')) {
            throw new InvalidOptionException(\sprintf('Option "tls_min" ("%s") is above "tls_max" ("%s"): no TLS version is left to negotiate.', $min, $max));
        }
    }

    /**
     * OpenSSL 3's default security level refuses TLS 1.0 and 1.1 whatever the floor says: a
     * `tls_min` of "1.0" allows them only where the system's OpenSSL configuration does.
     *
     * @return array<int, int>
     */
    public static function curlOptions(?string $min, ?string $max): array
    {
        if ($min === null && $max === null) {
            return [];
        }

        return [\CURLOPT_SSLVERSION => (self::FLOORS[$min ?? ''] ?? \CURL_SSLVERSION_DEFAULT) | (self::CEILINGS[$max ?? ''] ?? \CURL_SSLVERSION_MAX_DEFAULT)];
    }
}
