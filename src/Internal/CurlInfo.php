<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

use function curl_getinfo;

/**
 * Reads the few facts WarmHttp keeps of a finished transfer. Asking curl_getinfo() field by
 * field costs less than the full array (2.4 µs, measured on libcurl 7.88); it is imported by
 * name, so PHP calls it directly rather than through the namespace fallback (~25 instructions
 * a call). A warm HTTP/2 answer of CurlPool::sendAlone() has its facts read by
 * Response::ofWarmHttp2() instead, the same ones as read()'s reused-connection branch.
 *
 * @internal
 *
 * @phpstan-type Info array{header_size: int, num_connects: int, http_version: int, namelookup_time_us?: int, connect_time_us?: int, appconnect_time_us?: int, starttransfer_time_us: int, total_time_us: int, primary_ip: string, primary_port: int, redirect_count?: int}
 */
final class CurlInfo
{
    /**
     * A reused connection is not looked up, connected nor handshaken again: its three phase
     * times are 0 without asking (curl reports a few µs of finding the connection as its
     * name lookup there), and a transfer that follows no redirects has none. Each call costs
     * ~600 instructions; a warm request asks 7 times instead of 11. Its array then leaves the
     * four out (TransferStats reads them as 0): ~450 instructions less (callgrind, issue 16).
     *
     * @return Info
     */
    public static function read(\CurlHandle $handle, bool $followsRedirects = true): array
    {
        $connects = (int) curl_getinfo($handle, \CURLINFO_NUM_CONNECTS);
        if ($connects === 0 && !$followsRedirects) {
            return [
                'header_size' => (int) curl_getinfo($handle, \CURLINFO_HEADER_SIZE),
                'num_connects' => 0,
                'http_version' => (int) curl_getinfo($handle, \CURLINFO_HTTP_VERSION),
                'starttransfer_time_us' => (int) curl_getinfo($handle, \CURLINFO_STARTTRANSFER_TIME_T),
                'total_time_us' => (int) curl_getinfo($handle, \CURLINFO_TOTAL_TIME_T),
                'primary_ip' => (string) curl_getinfo($handle, \CURLINFO_PRIMARY_IP),
                'primary_port' => (int) curl_getinfo($handle, \CURLINFO_PRIMARY_PORT),
            ];
        }

        return [
            'header_size' => (int) curl_getinfo($handle, \CURLINFO_HEADER_SIZE),
            'num_connects' => $connects,
            'http_version' => (int) curl_getinfo($handle, \CURLINFO_HTTP_VERSION),
            'namelookup_time_us' => $connects === 0 ? 0 : (int) curl_getinfo($handle, \CURLINFO_NAMELOOKUP_TIME_T),
            'connect_time_us' => $connects === 0 ? 0 : (int) curl_getinfo($handle, \CURLINFO_CONNECT_TIME_T),
            'appconnect_time_us' => $connects === 0 ? 0 : (int) curl_getinfo($handle, \CURLINFO_APPCONNECT_TIME_T),
            'starttransfer_time_us' => (int) curl_getinfo($handle, \CURLINFO_STARTTRANSFER_TIME_T),
            'total_time_us' => (int) curl_getinfo($handle, \CURLINFO_TOTAL_TIME_T),
            'primary_ip' => (string) curl_getinfo($handle, \CURLINFO_PRIMARY_IP),
            'primary_port' => (int) curl_getinfo($handle, \CURLINFO_PRIMARY_PORT),
            'redirect_count' => $followsRedirects ? (int) curl_getinfo($handle, \CURLINFO_REDIRECT_COUNT) : 0,
        ];
    }
}
