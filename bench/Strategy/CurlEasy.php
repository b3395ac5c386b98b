<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Strategy;

use WarmHttp\Bench\BenchException;
use WarmHttp\Bench\Tls;

/**
 * The options every raw curl scenario sets, so they differ only in how they hold handles.
 *
 * @internal bench tooling
 */
final class CurlEasy
{
    /** @return array<int, mixed> */
    public static function options(string $url, Tls $tls, ?int $httpVersion = null): array
    {
        $options = [
            \CURLOPT_URL => $url,
            \CURLOPT_RETURNTRANSFER => true,
            \CURLOPT_TIMEOUT => 30,
            \CURLOPT_SSL_VERIFYPEER => $tls->verify,
            \CURLOPT_SSL_VERIFYHOST => $tls->verify ? 2 : 0,
        ];
        if ($tls->caFile !== null) {
            $options[\CURLOPT_CAINFO] = $tls->caFile;
        }
        if ($httpVersion !== null) {
            $options[\CURLOPT_HTTP_VERSION] = $httpVersion;
        }

        return $options;
    }

    public static function create(string $url, Tls $tls, ?int $httpVersion = null): \CurlHandle
    {
        $handle = curl_init();
        curl_setopt_array($handle, self::options($url, $tls, $httpVersion));

        return $handle;
    }

    /** After curl_exec() or a multi round: throws unless the transfer got a 200. */
    public static function check(\CurlHandle $handle, string $scenario, string $url, int $errno = 0): void
    {
        $errno = $errno !== 0 ? $errno : curl_errno($handle);
        if ($errno !== 0) {
            throw new BenchException(\sprintf('Scenario %s: %s failed: curl error %d (%s).', $scenario, $url, $errno, curl_strerror($errno)));
        }
        $status = curl_getinfo($handle, \CURLINFO_RESPONSE_CODE);
        if ($status !== 200) {
            throw BenchException::badResponse($scenario, $url, $status);
        }
    }
}
