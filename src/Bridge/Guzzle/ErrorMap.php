<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use GuzzleHttp\Exception\ConnectException;
use GuzzleHttp\Exception\RequestException as GuzzleRequestException;
use GuzzleHttp\Exception\TransferException;
use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\RequestInterface;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Exception\TimeoutException;

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
}
