<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

use WarmHttp\Exception\InvalidOptionException;

/**
 * The `decode_content` option: which content codings a request without its own
 * Accept-Encoding offers, all of them decoded by libcurl as they stream in.
 *
 * @internal
 */
final class ContentCodings
{
    /**
     * What `true` offers: gzip only, as Symfony HttpClient and Go's net/http do. Every server
     * that compresses speaks it, and some mishandle longer lists (Symfony's reason); a client
     * that wants br or zstd names them.
     */
    public const DEFAULT = 'gzip';

    /**
     * @return string|false the Accept-Encoding value to send, or false: no decoding
     */
    public static function check(string $name, mixed $value): string|false
    {
        if ($value === false) {
            return false;
        }
        if ($value === true) {
            return \in_array('gzip', self::decodable(), true) ? self::DEFAULT : false;
        }
        if (!\is_string($value) || trim($value) === '') {
            throw Options::wrong($name, 'a bool, or the codings to offer such as "gzip, br"', $value);
        }
        $codings = array_map(static fn(string $coding): string => strtolower(trim($coding)), explode(',', $value));
        $unknown = array_diff($codings, [...self::decodable(), 'identity']);
        if ($unknown !== []) {
            throw new InvalidOptionException(\sprintf(
                'Option "%s": this libcurl (%s) cannot decode "%s"; it decodes %s.',
                $name,
                self::curlVersion(),
                implode('", "', $unknown),
                implode(', ', self::decodable()),
            ));
        }

        return implode(', ', $codings);
    }

    /**
     * The codings libcurl decodes here, from its build's features.
     *
     * @return list<string>
     */
    public static function decodable(): array
    {
        $features = self::features();
        $codings = [];
        if (($features & \CURL_VERSION_LIBZ) !== 0) {
            array_push($codings, 'gzip', 'deflate');
        }
        if (($features & \CURL_VERSION_BROTLI) !== 0) {
            $codings[] = 'br';
        }
        if (\defined('CURL_VERSION_ZSTD') && ($features & \CURL_VERSION_ZSTD) !== 0) {
            $codings[] = 'zstd';
        }

        return $codings;
    }

    private static function features(): int
    {
        $version = curl_version();

        return \is_array($version) && \is_int($version['features'] ?? null) ? $version['features'] : 0;
    }

    private static function curlVersion(): string
    {
        $version = curl_version();

        return \is_array($version) && \is_string($version['version'] ?? null) ? 'libcurl ' . $version['version'] : 'libcurl';
    }
}
