<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Wire;

/**
 * A strict HTTP/1.1 request parser for the relay socket (RFC 9112): what it cannot read with
 * certainty it refuses with a status, never guesses, so a confused byte stream is never forwarded.
 *
 * @internal
 */
final class RequestParser
{
    public const MAX_HEAD_BYTES = 65536;

    private const TOKEN = "!#$%&'*+.^_`|~0-9A-Za-z-";

    /** @throws BadWireRequest */
    public static function head(string $buffer, int $maxBodyBytes): ?RequestHead
    {
        $end = strpos($buffer, "\r\n\r\n");
        if ($end === false) {
            if (\strlen($buffer) > self::MAX_HEAD_BYTES) {
                throw new BadWireRequest(431, 'The request head is larger than 64 KiB.');
            }

            return null;
        }
        $lines = explode("\r\n", substr($buffer, 0, $end));
        [$method, $target, $http10] = self::requestLine(array_shift($lines));
        $headers = self::headers($lines);
        [$length, $chunked] = self::framing($headers, $maxBodyBytes);

        return new RequestHead($method, $target, $headers, $end + 4, $http10, $length, $chunked);
    }

    /**
     * The body following $head in $buffer, and the bytes the whole request took; null until complete.
     *
     * @return array{string, int}|null
     *
     * @throws BadWireRequest
     */
    public static function body(string $buffer, RequestHead $head, int $maxBodyBytes): ?array
    {
        if ($head->chunked) {
            return ChunkedBody::decode($buffer, $head->length, $maxBodyBytes);
        }
        $length = $head->contentLength ?? 0;
        if (\strlen($buffer) < $head->length + $length) {
            return null;
        }

        return [substr($buffer, $head->length, $length), $head->length + $length];
    }

    /**
     * @return array{string, string, bool}
     *
     * @throws BadWireRequest
     */
    private static function requestLine(?string $line): array
    {
        if ($line === null || preg_match('{^([' . self::TOKEN . ']+) (\S+) HTTP/1\.([01])$}D', $line, $m) !== 1) {
            throw new BadWireRequest(400, \sprintf('Malformed request line "%s"; expected e.g. "POST https://api.example.com/x HTTP/1.1".', substr((string) $line, 0, 100)));
        }

        return [$m[1], $m[2], $m[3] === '0'];
    }

    /**
     * @param list<string> $lines
     *
     * @return list<array{string, string}>
     *
     * @throws BadWireRequest
     */
    private static function headers(array $lines): array
    {
        $headers = [];
        foreach ($lines as $line) {
            if (preg_match('{^([' . self::TOKEN . ']+):[ \t]*([^\x00-\x08\x0A-\x1F\x7F]*?)[ \t]*$}D', $line, $m) !== 1) {
                throw new BadWireRequest(400, \sprintf('Malformed header line "%s".', substr($line, 0, 100)));
            }
            $headers[] = [$m[1], $m[2]];
        }

        return $headers;
    }

    /**
     * @param list<array{string, string}> $headers
     *
     * @return array{?int, bool} content length, chunked
     *
     * @throws BadWireRequest
     */
    private static function framing(array $headers, int $maxBodyBytes): array
    {
        $lengths = [];
        $encodings = [];
        foreach ($headers as [$name, $value]) {
            match (strtolower($name)) {
                'content-length' => $lengths[] = $value,
                'transfer-encoding' => $encodings[] = strtolower($value),
                default => null,
            };
        }
        if ($encodings !== []) {
            // Both framings at once is the request-smuggling shape (RFC 9112 6.3): refuse it.
            if ($lengths !== [] || $encodings !== ['chunked']) {
                throw new BadWireRequest(400, 'Unsupported framing: only "Transfer-Encoding: chunked" alone, or Content-Length, is accepted.');
            }

            return [null, true];
        }
        if ($lengths === []) {
            return [null, false];
        }
        if (\count(array_unique($lengths)) !== 1 || preg_match('#^\d{1,15}$#D', $lengths[0]) !== 1) {
            throw new BadWireRequest(400, 'Invalid or conflicting Content-Length.');
        }
        $length = (int) $lengths[0];
        if ($length > $maxBodyBytes) {
            throw new BadWireRequest(413, \sprintf('The body (%d bytes) is larger than the relay accepts (--max-body=%d).', $length, $maxBodyBytes));
        }

        return [$length, false];
    }
}
