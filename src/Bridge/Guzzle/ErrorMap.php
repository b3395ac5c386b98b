<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use GuzzleHttp\Exception\ConnectException;
use GuzzleHttp\Exception\RequestException as GuzzleRequestException;
use GuzzleHttp\Exception\TransferException;
use GuzzleHttp\Psr7\Utils;
use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Exception\TimeoutException;
use WarmHttp\Internal\Decoding\DecodingFailed;

/**
 * WarmHttp's exceptions → the ones Guzzle's CurlHandler throws for the same failure, so retry
 * deciders and Laravel (ConnectException → ConnectionException) see what they always saw.
 *
 * @internal
 */
final class ErrorMap
{
    /**
     * The libcurl errors Guzzle 7 reports as ConnectException (CurlFactory::finishError);
     * every other transfer failure is a RequestException without a response.
     */
    private const CONNECTION_ERRORS = [
        \CURLE_OPERATION_TIMEOUTED,
        \CURLE_COULDNT_RESOLVE_HOST,
        \CURLE_COULDNT_CONNECT,
        \CURLE_SSL_CONNECT_ERROR,
        \CURLE_GOT_NOTHING,
    ];

    public static function toGuzzle(ClientExceptionInterface $error, RequestInterface $request): TransferException
    {
        $errno = match (true) {
            $error instanceof TimeoutException => \CURLE_OPERATION_TIMEOUTED,
            $error instanceof NetworkException => $error->curlErrno(),
            default => 0,
        };
        $context = ['errno' => $errno, 'error' => $error->getMessage()];
        if (\in_array($errno, self::CONNECTION_ERRORS, true)) {
            return new ConnectException($error->getMessage(), $request, $error, $context);
        }

        return new GuzzleRequestException($error->getMessage(), $request, null, $error, $context);
    }

    /**
     * A body that does not decode: what Guzzle's CurlHandler rejects with when libcurl fails
     * on it (same message form and handler context, so code matching "cURL error 61" keeps working).
     */
    public static function decoding(DecodingFailed $failure, RequestInterface $request, ResponseInterface $response): GuzzleRequestException
    {
        $message = \sprintf(
            'cURL error %d: %s (see https://curl.se/libcurl/c/libcurl-errors.html) for %s',
            $failure->curlErrno(),
            $failure->getMessage(),
            Utils::redactUserInfo($request->getUri()),
        );

        return new GuzzleRequestException($message, $request, $response, $failure, ['errno' => $failure->curlErrno(), 'error' => $failure->getMessage()]);
    }
}
