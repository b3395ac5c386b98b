<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use GuzzleHttp\Exception\RequestException as GuzzleRequestException;
use GuzzleHttp\Psr7\Response;
use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Exception\NetworkException;

/**
 * Turns what the pool settled with into what Guzzle's CurlHandler would have resolved or
 * rejected with, running the per-request hooks in its order: head (decoding headers),
 * on_headers, body (decode, sink), on_stats.
 *
 * @internal
 */
final class Outcome
{
    /** @param array<string, mixed> $options */
    public static function settle(RequestInterface $request, array $options, float $started, ResponseInterface|ClientExceptionInterface $outcome): ResponseInterface|\Throwable
    {
        if ($outcome instanceof ClientExceptionInterface) {
            $thrown = ProgressCallback::failureOf($options);
            if ($thrown !== null) {
                return $thrown; // what Guzzle's wait throws: no on_stats runs
            }

            return self::failed($request, $options, $started, self::statusRefused($request, $outcome) ?? ErrorMap::toGuzzle($outcome, $request));
        }
        $response = self::body($request, $options, $outcome);
        if ($response instanceof \Throwable) {
            return self::failed($request, $options, $started, $response);
        }
        try {
            // on_stats gets the caller's Guzzle Response, as from Guzzle's CurlHandler; the
            // pool's response carries the transfer stats, and curl's info describes the bytes
            // as received (encoded), as Guzzle's does.
            StatsReport::success($request, $response, $options, $started, $outcome);
        } catch (\Throwable $e) {
            return $e; // as in Guzzle: a throwing on_stats is the visible failure
        }

        return $response;
    }

    /**
     * The pool refuses a status outside 100–599 while parsing the head; Guzzle's CurlHandler
     * fails the same answer when its Response constructor throws, with these words and that
     * constructor's exception as previous.
     */
    private static function statusRefused(RequestInterface $request, ClientExceptionInterface $error): ?GuzzleRequestException
    {
        if (!$error instanceof NetworkException || preg_match('/the response has status (\d+), outside 100-599/', $error->getMessage(), $status) !== 1) {
            return null;
        }
        try {
            new Response((int) $status[1]);
        } catch (\InvalidArgumentException $refused) {
            return new GuzzleRequestException('An error was encountered while creating the response', $request, null, $refused);
        }

        return null;
    }

    /**
     * A request the Client refused before sending (an option it cannot honour, a malformed
     * request): Guzzle's RequestException, reported to on_stats as a failure.
     *
     * @param array<string, mixed> $options
     */
    public static function refused(RequestInterface $request, array $options, float $started, \Throwable $reason): \Throwable
    {
        return self::failed($request, $options, $started, new GuzzleRequestException($reason->getMessage(), $request, null, $reason));
    }

    /**
     * Head, on_headers, then body, as Guzzle's CurlHandler: on_headers sees the final headers
     * and an empty sink, and when it throws nothing is decoded or written.
     *
     * @param array<string, mixed> $options
     */
    private static function body(RequestInterface $request, array $options, ResponseInterface $received): ResponseInterface|\Throwable
    {
        try {
            $body = ResponseBody::receive($request, $received, $options);
        } catch (GuzzleRequestException $e) {
            return $e;
        } catch (\Throwable $e) {
            return self::sinkFailed($request, $received, $e);
        }
        $onHeaders = $options['on_headers'] ?? null;
        if (\is_callable($onHeaders)) {
            try {
                $onHeaders($body->head());
            } catch (\Throwable $e) {
                // Guzzle's own wording and handler context (errno 23), so code matching on it keeps working.
                return ErrorMap::onHeaders($request, $body->head(), $e);
            }
        }
        try {
            return $body->write();
        } catch (GuzzleRequestException $e) {
            return $e;
        } catch (\Throwable $e) {
            return self::sinkFailed($request, $body->head(), $e);
        }
    }

    private static function sinkFailed(RequestInterface $request, ResponseInterface $response, \Throwable $e): GuzzleRequestException
    {
        return new GuzzleRequestException('Could not write the response body to the "sink" option: ' . $e->getMessage(), $request, $response, $e);
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
