<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Storage;

/**
 * A spooled request in a binary form that keeps every byte: length-prefixed strings, no text
 * encoding. JSON (used before) had to replace bytes that are not UTF-8 (JSON_INVALID_UTF8_SUBSTITUTE),
 * and a header value with byte 0xFF reached its destination as U+FFFD: a webhook's signature
 * over it no longer matched.
 *
 *     created at (8, IEEE double) | method | uri | idempotency key | header count (4) | name | value … | body
 *
 * each string a 4-byte big-endian length and its bytes.
 *
 * @internal
 */
final class RequestBytes
{
    /** Starts the spool's headers column in this form; JSON (older rows) starts with '['. */
    private const HEADERS_TAG = "\x00H1";

    public static function encode(SpooledRequest $request): string
    {
        // A few pack() calls for the whole record (one per header): a pack() per string cost
        // ~16 k instructions per dispatch.
        $bytes = pack(
            'ENa*Na*Na*',
            $request->createdAt,
            \strlen($request->method),
            $request->method,
            \strlen($request->uri),
            $request->uri,
            \strlen($request->idempotencyKey),
            $request->idempotencyKey,
        );

        return $bytes . self::headerBytes($request->headers) . pack('N', \strlen($request->body)) . $request->body;
    }

    /** @return SpooledRequest|null null when the bytes are not a whole request */
    public static function decode(string $bytes): ?SpooledRequest
    {
        if (\strlen($bytes) < 8) {
            return null;
        }
        /** @var array{1: float} $time */
        $time = unpack('E', $bytes);
        $at = 8;
        $method = self::read($bytes, $at);
        $uri = self::read($bytes, $at);
        $key = self::read($bytes, $at);
        $headers = self::readHeaders($bytes, $at);
        $body = self::read($bytes, $at);
        if ($method === null || $uri === null || $key === null || $headers === null || $body === null || $at !== \strlen($bytes)) {
            return null;
        }

        return new SpooledRequest(0, $method, $uri, $headers, $body, $key, 0, $time[1]);
    }

    /** @param list<array{string, string}> $headers */
    public static function encodeHeaders(array $headers): string
    {
        return self::HEADERS_TAG . self::headerBytes($headers);
    }

    /**
     * The spool's headers column: binary (this form) or JSON (rows spooled by older versions).
     *
     * @return list<array{string, string}>
     */
    public static function decodeHeaders(string $column): array
    {
        if (str_starts_with($column, self::HEADERS_TAG)) {
            $at = \strlen(self::HEADERS_TAG);

            return self::readHeaders($column, $at) ?? [];
        }
        /** @var list<array{string, string}> $headers */
        $headers = json_decode($column, true) ?: [];

        return $headers;
    }

    /** A journal payload of the format before the record marker: a JSON array of six fields. */
    public static function decodeLegacyJson(string $payload): ?SpooledRequest
    {
        $fields = json_decode($payload, true);
        if (!\is_array($fields) || \count($fields) !== 6) {
            return null;
        }
        [$method, $uri, $headers, $body, $key, $createdAt] = array_values($fields);
        /** @var list<array{string, string}> $headers */
        $headers = \is_array($headers) ? $headers : [];

        return new SpooledRequest(0, self::text($method), self::text($uri), $headers, (string) base64_decode(self::text($body), true), self::text($key), 0, is_numeric($createdAt) ? (float) $createdAt : microtime(true));
    }

    /** @param list<array{string, string}> $headers */
    private static function headerBytes(array $headers): string
    {
        $bytes = pack('N', \count($headers));
        foreach ($headers as [$name, $value]) {
            $bytes .= pack('Na*Na*', \strlen($name), $name, \strlen($value), $value);
        }

        return $bytes;
    }

    private static function read(string $bytes, int &$at): ?string
    {
        if (\strlen($bytes) - $at < 4) {
            return null;
        }
        /** @var array{1: int} $length */
        $length = unpack('N', $bytes, $at);
        $at += 4;
        if (\strlen($bytes) - $at < $length[1]) {
            return null;
        }
        $value = substr($bytes, $at, $length[1]);
        $at += $length[1];

        return $value;
    }

    /** @return list<array{string, string}>|null */
    private static function readHeaders(string $bytes, int &$at): ?array
    {
        if (\strlen($bytes) - $at < 4) {
            return null;
        }
        /** @var array{1: int} $count */
        $count = unpack('N', $bytes, $at);
        $at += 4;
        $headers = [];
        for ($i = 0; $i < $count[1]; ++$i) {
            $name = self::read($bytes, $at);
            $value = self::read($bytes, $at);
            if ($name === null || $value === null) {
                return null;
            }
            $headers[] = [$name, $value];
        }

        return $headers;
    }

    private static function text(mixed $field): string
    {
        return \is_string($field) ? $field : '';
    }
}
