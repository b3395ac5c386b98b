<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use GuzzleHttp\Exception\RequestException as GuzzleRequestException;
use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;

/**
 * Turns what the pool settled with into what Guzzle's CurlHandler would have resolved or
 * rejected with, running the per-request hooks in its order: body (decode, sink), on_headers,
 * on_stats.
 *
 * @internal
 */
final class Outcome
{
    /** @param array<string, mixed> $options */
    public static function settle(RequestInterface $request, array $options, float $started, ResponseInterface|ClientExceptionInterface $outcome): ResponseInterface|\Throwable
    {
        if ($outcome instanceof ClientExceptionInterface) {
            return self::failed($request, $options, $started, ErrorMap::toGuzzle($outcome, $request));
        }
        try {
            $response = ResponseBody::finish($request, $outcome, $options);
        } catch (GuzzleRequestException $e) {
            return self::failed($request, $options, $started, $e);
        } catch (\Throwable $e) {
            return self::failed($request, $options, $started, new GuzzleRequestException('Could not write the response body to the "sink" option: ' . $e->getMessage(), $request, $outcome, $e));
        }
        $onHeaders = $options['on_headers'] ?? null;
        if (\is_callable($onHeaders)) {
            try {
                $onHeaders($response);
            } catch (\Throwable $e) {
                // Guzzle's own wording, so code matching on it keeps working.
                return self::failed($request, $options, $started, new GuzzleRequestException('An error was encountered during the on_headers event', $request, $response, $e));
            }
        }
        try {
            StatsReport::success($request, $response, $options, $started);
        } catch (\Throwable $e) {
            return $e; // as in Guzzle: a throwing on_stats is the visible failure
        }

        return $response;
    }

    /** @param array<string, mixed> $options */
    private static function failed(RequestInterface $request, array $options, float $started, \Throwable $error): \Throwable
    {
        try {
            StatsReport::failure($request, $options, $started, $error);
        } catch (\Throwable $e) {
            return $e;
        }

        return $error;
    }
}
