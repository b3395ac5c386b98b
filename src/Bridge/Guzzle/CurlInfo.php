<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Response;
use WarmHttp\TransferStats;

/**
 * The curl_getinfo() array Guzzle's CurlHandler hands to `on_stats` (handler stats) and puts in
 * an exception's handler context, rebuilt from what the pool reports: every key this PHP's
 * curl_getinfo() has, in its order, with the measured values filled in and the others left at
 * the value of a handle that has not transferred (0, -1, ""). Built only when a request has
 * `on_stats` or fails.
 *
 * @internal
 */
final class CurlInfo
{
    /** @var array<string, mixed>|null curl_getinfo() of a fresh handle, once per process */
    private static ?array $template = null;

    /** @return array<string, mixed> */
    public static function of(RequestInterface $request, ?ResponseInterface $response, float $seconds, ?TransferStats $stats = null): array
    {
        $uri = $request->getUri()->withFragment('');
        $info = [
            'url' => (string) $uri,
            'http_code' => $response?->getStatusCode() ?? 0,
            'content_type' => $response !== null && $response->hasHeader('Content-Type') ? $response->getHeaderLine('Content-Type') : null,
            'total_time' => $seconds,
            'total_time_us' => (int) round($seconds * 1e6),
            'effective_method' => $request->getMethod(),
            'download_content_length' => self::contentLength($response),
            'upload_content_length' => (float) ($request->getBody()->getSize() ?? -1),
            'size_upload' => (float) ($request->getBody()->getSize() ?? 0),
            'size_download' => self::downloaded($response),
        ];
        if ($response !== null) {
            // libcurl fills these once a connection is made; a failure before it leaves them empty.
            $info += ['scheme' => strtoupper($uri->getScheme()), 'protocol' => $uri->getScheme() === 'https' ? \CURLPROTO_HTTPS : \CURLPROTO_HTTP];
        }
        $stats ??= $response instanceof Response ? $response->stats() : null;
        if ($stats !== null) {
            $info = self::timings($stats) + $info;
        }

        return array_replace(self::template(), $info, ['appconnect_time' => $info['appconnect_time'] ?? 0.0]);
    }

    /** @return array<string, mixed> */
    private static function timings(TransferStats $stats): array
    {
        $connected = ($stats->dnsMs + $stats->connectMs) / 1000;
        $appConnected = $stats->tlsMs > 0 ? $connected + $stats->tlsMs / 1000 : 0.0;
        $separator = strrpos($stats->remoteAddress, ':');
        $seconds = [
            'namelookup_time' => $stats->dnsMs / 1000,
            'connect_time' => $connected,
            'appconnect_time' => $appConnected,
            'pretransfer_time' => max($connected, $appConnected),
            'starttransfer_time' => $stats->firstByteMs / 1000,
            'total_time' => $stats->totalMs / 1000,
        ];
        $micros = [];
        foreach ($seconds as $key => $value) {
            $micros[$key . '_us'] = (int) round($value * 1e6);
        }

        return $seconds + $micros + [
            'redirect_count' => $stats->redirects,
            'primary_ip' => trim($separator === false ? $stats->remoteAddress : substr($stats->remoteAddress, 0, $separator), '[]'),
            'primary_port' => $separator === false ? 0 : (int) substr($stats->remoteAddress, $separator + 1),
            'http_version' => $stats->httpVersion === '2' ? \CURL_HTTP_VERSION_2_0 : \CURL_HTTP_VERSION_1_1,
            'num_connects' => $stats->reusedConnection ? 0 : 1, // not a curl_getinfo() key: CURLINFO_NUM_CONNECTS, which WarmHttp's stats reported before
            'warmhttp' => $stats,
        ];
    }

    private static function contentLength(?ResponseInterface $response): float
    {
        $length = $response?->getHeaderLine('Content-Length') ?? '';

        return ctype_digit($length) ? (float) $length : -1.0;
    }

    /**
     * The body's size as it came: the pool's own response holds the bytes as received (the
     * bridge's Clients never decode); of another, a decoded body's size is not what was
     * downloaded: 0 then.
     */
    private static function downloaded(?ResponseInterface $response): float
    {
        if ($response instanceof Response) {
            return (float) ($response->getBody()->getSize() ?? 0);
        }
        if ($response === null || $response->hasHeader('Content-Encoding') || $response->hasHeader('X-Encoded-Content-Encoding')) {
            return 0.0;
        }

        return (float) ($response->getBody()->getSize() ?? 0);
    }

    /** @return array<string, mixed> */
    private static function template(): array
    {
        if (self::$template === null) {
            $handle = curl_init();
            self::$template = curl_getinfo($handle);
            curl_close($handle);
        }

        return self::$template;
    }
}
