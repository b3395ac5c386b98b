<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Rig;

use WarmHttp\Rig\Rig;

/**
 * Plain curl_* calls for the rig tests: the rig is checked with bare libcurl, not our client.
 */
final class CurlGet
{
    /**
     * @param array<int, mixed> $options
     *
     * @return array{body: string, status: int, version: int, errno: int, error: string, time: float}
     */
    public static function fetch(string $url, array $options = [], ?\CurlHandle $handle = null): array
    {
        $handle ??= curl_init();
        curl_setopt_array($handle, $options + [
            \CURLOPT_URL => $url,
            \CURLOPT_RETURNTRANSFER => true,
            \CURLOPT_CAINFO => Rig::shared()->caFile(),
            \CURLOPT_TIMEOUT_MS => 10_000,
        ]);
        $start = hrtime(true);
        $body = curl_exec($handle);
        $time = (hrtime(true) - $start) / 1e6;

        return [
            'body' => \is_string($body) ? $body : '',
            'status' => (int) curl_getinfo($handle, \CURLINFO_RESPONSE_CODE),
            'version' => (int) curl_getinfo($handle, \CURLINFO_HTTP_VERSION),
            'errno' => curl_errno($handle),
            'error' => curl_error($handle),
            'time' => $time,
        ];
    }
}
