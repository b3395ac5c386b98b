<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

/**
 * Turns a libcurl error number into a Failure a user can act on: its kind and its meaning.
 *
 * @internal
 */
final class CurlErrors
{
    /**
     * The connection died under a request: on a reused connection, a safe request is retried.
     * 16 and 92 are HTTP/2 framing and stream errors (no ext-curl constants): what a reused h2
     * connection shows after the server sent GOAWAY, e.g. when a forked child closed it.
     */
    private const DEAD_CONNECTION = [\CURLE_GOT_NOTHING, \CURLE_SEND_ERROR, \CURLE_RECV_ERROR, 16, 92];

    private const MEANING = [
        \CURLE_COULDNT_RESOLVE_HOST => 'the host name could not be resolved',
        \CURLE_COULDNT_CONNECT => 'the connection was refused or could not be made',
        \CURLE_GOT_NOTHING => 'the server closed the connection without sending a response',
        \CURLE_SEND_ERROR => 'the connection broke while sending the request',
        \CURLE_RECV_ERROR => 'the connection broke while receiving the response (reset by peer?)',
        65 => 'the reused connection died after the request was sent, and the server may have received it; it was not re-sent because the method is not idempotent (send an Idempotency-Key header to allow a retry)', // CURLE_SEND_FAIL_REWIND
        \CURLE_PARTIAL_FILE => 'the response was truncated: the connection closed before the announced body length arrived',
        \CURLE_WEIRD_SERVER_REPLY => 'the server sent something that is not a valid HTTP response',
        \CURLE_UNSUPPORTED_PROTOCOL => 'the server sent an unsupported or malformed HTTP response',
        \CURLE_SSL_CONNECT_ERROR => 'the TLS handshake failed',
        \CURLE_SSL_PEER_CERTIFICATE => 'the server certificate could not be verified (set "cafile" to your CA bundle; "verify" => false only for testing)',
        \CURLE_SSL_CACERT_BADFILE => 'the CA bundle given in "cafile" could not be read',
        16 => 'an HTTP/2 framing error occurred', // CURLE_HTTP2, not defined by ext-curl
        92 => 'the HTTP/2 stream was reset by the server', // CURLE_HTTP2_STREAM
        \CURLE_BAD_CONTENT_ENCODING => 'the response body could not be decoded',
    ];

    public static function isDeadConnection(int $errno): bool
    {
        return \in_array($errno, self::DEAD_CONNECTION, true);
    }

    /**
     * @param array<string, mixed> $curlInfo
     * @param int|null             $maxResponseBytes the `max_response_bytes` in force, if any
     */
    public static function classify(int $errno, string $curlMessage, array $curlInfo, ?int $maxResponseBytes): Failure
    {
        return match (true) {
            $errno === \CURLE_OPERATION_TIMEDOUT => self::timeout($curlInfo),
            $errno === \CURLE_FILESIZE_EXCEEDED, $errno === \CURLE_WRITE_ERROR && $maxResponseBytes !== null => new Failure(
                FailureKind::TooLarge,
                \sprintf('the response body is larger than the %d bytes allowed by the "max_response_bytes" option; it was cut off', $maxResponseBytes ?? 0),
                $errno,
            ),
            $errno === \CURLE_TOO_MANY_REDIRECTS => new Failure(FailureKind::Request, 'too many redirects (see the "max_redirects" option)', $errno),
            $errno === \CURLE_UNSUPPORTED_PROTOCOL && self::int($curlInfo, 'redirect_count') > 0 => new Failure(FailureKind::Request, 'a redirect pointed to a scheme other than http or https and was refused', $errno),
            default => new Failure(FailureKind::Network, \sprintf(
                '%s (curl error %d: %s)',
                self::MEANING[$errno] ?? 'a transport error occurred',
                $errno,
                $curlMessage,
            ), $errno),
        };
    }

    /** @param array<string, mixed> $curlInfo */
    private static function timeout(array $curlInfo): Failure
    {
        $connected = self::int($curlInfo, 'connect_time_us') > 0 || ($curlInfo['num_connects'] ?? 1) === 0;
        $what = $connected
            ? \sprintf('no complete response within the "timeout" option (%.3f s elapsed)', self::int($curlInfo, 'total_time_us') / 1e6)
            : 'no connection within the "connect_timeout" option';

        return new Failure(FailureKind::Timeout, $what, \CURLE_OPERATION_TIMEDOUT);
    }

    /** @param array<string, mixed> $curlInfo */
    private static function int(array $curlInfo, string $key): int
    {
        $value = $curlInfo[$key] ?? 0;

        return \is_int($value) ? $value : 0;
    }
}
