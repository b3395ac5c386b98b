<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use GuzzleHttp\Exception\ConnectException;
use GuzzleHttp\Exception\RequestException as GuzzleRequestException;
use GuzzleHttp\TransferStats as GuzzleTransferStats;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Response;

/**
 * The `on_stats` request option as Guzzle's CurlHandler calls it: a GuzzleHttp\TransferStats
 * whose handler stats are curl_getinfo()'s keys (CurlInfo; times in seconds, cumulative, plus
 * the WarmHttp\TransferStats under "warmhttp"), and whose handler error data is the curl errno
 * (0 on success) — an exception only where the request failed before any transfer.
 *
 * @internal
 */
final class StatsReport
{
    /**
     * @param ResponseInterface      $response what the caller gets (Guzzle's Response, decoded), as Guzzle passes it
     * @param array<string, mixed>   $options
     * @param ResponseInterface|null $received the pool's response as it came off the wire, whose
     *                                         transfer stats and undecoded headers curl's info
     *                                         describes (Content-Length, size_download); null: $response
     */
    public static function success(RequestInterface $request, ResponseInterface $response, array $options, float $started, ?ResponseInterface $received = null): void
    {
        $onStats = $options['on_stats'] ?? null;
        if (!\is_callable($onStats)) {
            return;
        }
        $received ??= $response;
        $stats = $received instanceof Response ? $received->stats() : null;
        $seconds = $stats !== null ? $stats->totalMs / 1000 : microtime(true) - $started;
        $onStats(new GuzzleTransferStats($request, $response, $seconds, 0, CurlInfo::of($request, $received, $seconds, $stats)));
    }

    /** @param array<string, mixed> $options */
    public static function failure(RequestInterface $request, array $options, float $started, \Throwable $error): void
    {
        $onStats = $options['on_stats'] ?? null;
        if (!\is_callable($onStats)) {
            return;
        }
        $seconds = microtime(true) - $started;
        $errno = self::errno($error);
        $response = $error instanceof GuzzleRequestException ? $error->getResponse() : null;
        $onStats(new GuzzleTransferStats($request, $response, $seconds, $errno ?? $error, CurlInfo::of($request, $response, $seconds)));
    }

    /**
     * The errno Guzzle's CurlHandler passes as handler error data: curl's for a transfer that
     * failed; for an answer refused by on_headers or a sink, 23 (CURLE_WRITE_ERROR: Guzzle's
     * header and write callbacks fail the transfer). Null for a refusal before sending.
     */
    private static function errno(\Throwable $error): ?int
    {
        if (!$error instanceof GuzzleRequestException && !$error instanceof ConnectException) {
            return null;
        }
        $errno = $error->getHandlerContext()['errno'] ?? null;
        if (\is_int($errno)) {
            return $errno;
        }

        return $error instanceof GuzzleRequestException && $error->getResponse() !== null ? \CURLE_WRITE_ERROR : null;
    }
}
