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
 * WarmHttp's exceptions → the ones Guzzle's CurlHandler throws for the same failure, in its
 * message form ("cURL error 7: … (see https://curl.se/libcurl/c/libcurl-errors.html) for <uri>",
 * what retry deciders and log alerts match on) and with its handler context (errno, error, the
 * curl_getinfo() keys, curl_version), so retry deciders and Laravel (ConnectException →
 * ConnectionException) see what they always saw.
 *
 * @internal
 */
final class ErrorMap
{
    /**
     * The libcurl errors Guzzle 7 reports as ConnectException (CurlFactory::createRejection);
     * every other transfer failure is a RequestException without a response.
     */
    private const CONNECTION_ERRORS = [
        \CURLE_OPERATION_TIMEOUTED,
        \CURLE_COULDNT_RESOLVE_HOST,
        \CURLE_COULDNT_CONNECT,
        \CURLE_SSL_CONNECT_ERROR,
        \CURLE_GOT_NOTHING,
    ];

    /** WarmHttp's messages end "(curl error N: libcurl's own message)." where libcurl failed. */
    private const CURL_MESSAGE = '/\(curl error \d+: (.*)\)\.$/s';

    public static function toGuzzle(ClientExceptionInterface $error, RequestInterface $request): TransferException
    {
        $errno = match (true) {
            $error instanceof TimeoutException => \CURLE_OPERATION_TIMEOUTED,
            $error instanceof NetworkException => $error->curlErrno(),
            default => 0,
        };
        $what = self::what($error->getMessage());
        $context = self::context($errno, $what, $request, null);
        $message = self::message($errno, $what, $request);
        if (\in_array($errno, self::CONNECTION_ERRORS, true)) {
            return new ConnectException($message, $request, $error, $context);
        }

        return new GuzzleRequestException($message, $request, null, $error, $context);
    }

    /**
     * A body that does not decode: what Guzzle's CurlHandler rejects with when libcurl fails
     * on it (same message form and handler context, so code matching "cURL error 61" keeps working).
     */
    public static function decoding(DecodingFailed $failure, RequestInterface $request, ResponseInterface $response): GuzzleRequestException
    {
        $errno = $failure->curlErrno();
        $context = self::context($errno, $failure->getMessage(), $request, $response);

        return new GuzzleRequestException(self::message($errno, $failure->getMessage(), $request), $request, $response, $failure, $context);
    }

    /**
     * An on_headers callback that threw: Guzzle's wording, the answer's head, and the context
     * of the transfer libcurl failed for it (23: Guzzle's header callback refuses the head).
     */
    public static function onHeaders(RequestInterface $request, ResponseInterface $head, \Throwable $thrown): GuzzleRequestException
    {
        $context = self::context(\CURLE_WRITE_ERROR, 'Failed writing header', $request, $head);

        return new GuzzleRequestException('An error was encountered during the on_headers event', $request, $head, $thrown, $context);
    }

    /** Guzzle's form; the URI is left out when the error already names it, as Guzzle does. */
    public static function message(int $errno, string $error, RequestInterface $request): string
    {
        $message = \sprintf('cURL error %d: %s (see https://curl.se/libcurl/c/libcurl-errors.html)', $errno, $error);
        $uri = (string) Utils::redactUserInfo($request->getUri());
        if ($error !== '' && $uri !== '' && !str_contains($error, $uri)) {
            $message .= ' for ' . $uri;
        }

        return $message;
    }

    /**
     * libcurl's own message where WarmHttp's carries it; else WarmHttp's reason (a timeout, a
     * malformed answer), without the "GET <uri> failed: " prefix the form above replaces.
     */
    private static function what(string $message): string
    {
        if (preg_match(self::CURL_MESSAGE, $message, $match) === 1) {
            return $match[1];
        }
        $failed = strpos($message, ' failed: ');

        return rtrim($failed === false ? $message : substr($message, $failed + 9), '.');
    }

    /** @return array<string, mixed> */
    private static function context(int $errno, string $error, RequestInterface $request, ?ResponseInterface $response): array
    {
        $info = CurlInfo::of($request, $response, 0.0);
        unset($info['warmhttp']);
        $version = curl_version();

        return ['errno' => $errno, 'error' => $error] + $info + ['curl_version' => \is_array($version) ? $version['version'] : ''];
    }
}
