<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

use WarmHttp\Response;

/**
 * The response of a transfer whose body and header lines went to /dev/null (relay deliveries):
 * its status, and Retry-After as curl parsed it. Collecting header lines and body in PHP
 * callbacks took 12% of the delivery worker's CPU (measured with excimer, 10,000 deliveries);
 * writing them to a file descriptor costs PHP nothing.
 *
 * @internal
 */
final class DiscardedResponse
{
    /** @var resource|null */
    private static $devNull = null;

    /** @return array<int, mixed> curl options that send the whole response to /dev/null */
    public static function curlOptions(?int $maxBytes): array
    {
        $options = [
            \CURLOPT_RETURNTRANSFER => false,
            \CURLOPT_HEADER => false,
            \CURLOPT_FILE => self::devNull(),
        ];
        if ($maxBytes !== null) {
            // A body announced larger than this is not downloaded (CURLE_FILESIZE_EXCEEDED).
            $options[\CURLOPT_MAXFILESIZE_LARGE] = $maxBytes;
        }

        return $options;
    }

    /** @param array<string, mixed> $info from CurlInfo::read() */
    public static function from(\CurlHandle $handle, array $info): Response
    {
        $status = curl_getinfo($handle, \CURLINFO_RESPONSE_CODE);
        // curl turns both forms of Retry-After (seconds or an HTTP date) into seconds; 0 when absent.
        $retryAfter = curl_getinfo($handle, \CURLINFO_RETRY_AFTER);
        $lines = $retryAfter > 0 ? ['Retry-After: ' . $retryAfter] : [];
        $version = match ($info['http_version'] ?? 0) {
            \CURL_HTTP_VERSION_2_0 => '2',
            \CURL_HTTP_VERSION_1_0 => '1.0',
            default => '1.1',
        };

        return Response::ofHead($status, '', $version, $lines, new MemoryStream(''), $info);
    }

    /** @return resource */
    private static function devNull()
    {
        // One descriptor for the process: curl writes through it, nothing is kept.
        if (self::$devNull === null) {
            $stream = fopen('/dev/null', 'w');
            if ($stream === false) {
                throw new \RuntimeException('Cannot open /dev/null to discard relay delivery responses.');
            }
            self::$devNull = $stream;
        }

        return self::$devNull;
    }
}
