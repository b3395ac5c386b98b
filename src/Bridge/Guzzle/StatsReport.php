<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use GuzzleHttp\Exception\RequestException as GuzzleRequestException;
use GuzzleHttp\TransferStats as GuzzleTransferStats;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Response;
use WarmHttp\TransferStats;

/**
 * The `on_stats` request option: a GuzzleHttp\TransferStats whose handler stats carry the
 * curl_getinfo() keys Guzzle's CurlHandler reports (times in seconds, cumulative), plus the
 * WarmHttp\TransferStats under "warmhttp".
 *
 * @internal
 */
final class StatsReport
{
    /** @param array<string, mixed> $options */
    public static function success(RequestInterface $request, ResponseInterface $response, array $options, float $started): void
    {
        $onStats = $options['on_stats'] ?? null;
        if (!\is_callable($onStats)) {
            return;
        }
        $stats = $response instanceof Response ? $response->stats() : null;
        $seconds = $stats !== null ? $stats->totalMs / 1000 : microtime(true) - $started;
        $handlerStats = ['url' => (string) $request->getUri(), 'http_code' => $response->getStatusCode(), 'total_time' => $seconds];
        if ($stats !== null) {
            $handlerStats = self::curlInfo($stats) + $handlerStats;
        }
        $onStats(new GuzzleTransferStats($request, $response, $seconds, 0, $handlerStats)); // errno 0, as CurlHandler
    }

    /** @param array<string, mixed> $options */
    public static function failure(RequestInterface $request, array $options, float $started, \Throwable $error): void
    {
        $onStats = $options['on_stats'] ?? null;
        if (\is_callable($onStats)) {
            // CurlHandler passes the curl errno here; a refusal before sending passes the error.
            $context = $error instanceof GuzzleRequestException ? $error->getHandlerContext() : [];
            $errno = $context['errno'] ?? null;
            $onStats(new GuzzleTransferStats($request, null, microtime(true) - $started, \is_int($errno) && $errno > 0 ? $errno : $error, ['url' => (string) $request->getUri()]));
        }
    }

    /** @return array<string, mixed> */
    private static function curlInfo(TransferStats $stats): array
    {
        $connected = ($stats->dnsMs + $stats->connectMs) / 1000;
        $separator = strrpos($stats->remoteAddress, ':');

        return [
            'namelookup_time' => $stats->dnsMs / 1000,
            'connect_time' => $connected,
            'appconnect_time' => $stats->tlsMs > 0 ? $connected + $stats->tlsMs / 1000 : 0.0,
            'starttransfer_time' => $stats->firstByteMs / 1000,
            'total_time' => $stats->totalMs / 1000,
            'redirect_count' => $stats->redirects,
            'primary_ip' => $separator === false ? $stats->remoteAddress : substr($stats->remoteAddress, 0, $separator),
            'primary_port' => $separator === false ? 0 : (int) substr($stats->remoteAddress, $separator + 1),
            'num_connects' => $stats->reusedConnection ? 0 : 1,
            'http_version' => $stats->httpVersion === '2' ? \CURL_HTTP_VERSION_2_0 : \CURL_HTTP_VERSION_1_1,
            'warmhttp' => $stats,
        ];
    }
}
