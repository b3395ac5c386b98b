<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Storage;

/**
 * One accepted request as the journal holds it: a length, a CRC32 of the payload, the payload.
 * A record whose length or checksum does not add up was cut short by a crash or a full disk;
 * it was never acknowledged, and the reader skips it.
 *
 * @internal
 */
final class JournalRecord
{
    /** Length (4 bytes) and CRC32 (4 bytes), big-endian. */
    public const HEADER_BYTES = 8;

    public static function encode(SpooledRequest $request): string
    {
        $payload = json_encode([
            $request->method,
            $request->uri,
            $request->headers,
            base64_encode($request->body),
            $request->idempotencyKey,
            $request->createdAt,
        ], \JSON_THROW_ON_ERROR | \JSON_UNESCAPED_SLASHES | \JSON_INVALID_UTF8_SUBSTITUTE);

        return pack('NN', \strlen($payload), crc32($payload)) . $payload;
    }

    /** The bytes the record at $offset takes, when it is whole and intact; null otherwise. */
    public static function wholeLength(string $bytes, int $offset): ?int
    {
        if (\strlen($bytes) - $offset < self::HEADER_BYTES) {
            return null;
        }
        /** @var array{1: int, 2: int} $header */
        $header = unpack('N2', $bytes, $offset);
        [1 => $length, 2 => $crc] = $header;
        $payload = substr($bytes, $offset + self::HEADER_BYTES, $length);

        return \strlen($payload) === $length && crc32($payload) === $crc ? self::HEADER_BYTES + $length : null;
    }

    /**
     * @return array{SpooledRequest, int}|null the request and the bytes it took; null when the
     *                                          bytes from $offset do not hold a whole, intact record
     */
    public static function decode(string $bytes, int $offset): ?array
    {
        $whole = self::wholeLength($bytes, $offset);
        if ($whole === null) {
            return null;
        }
        $fields = json_decode(substr($bytes, $offset + self::HEADER_BYTES, $whole - self::HEADER_BYTES), true);
        if (!\is_array($fields) || \count($fields) !== 6) {
            return null;
        }

        return [self::request($fields), $whole];
    }

    /** @param array<mixed> $fields */
    private static function request(array $fields): SpooledRequest
    {
        [$method, $uri, $headers, $body, $key, $createdAt] = array_map(static fn(mixed $f): mixed => \is_scalar($f) || \is_array($f) ? $f : '', $fields);
        /** @var list<array{string, string}> $headers */
        $headers = \is_array($headers) ? $headers : [];

        return new SpooledRequest(
            0,
            self::text($method),
            self::text($uri),
            $headers,
            (string) base64_decode(self::text($body), true),
            self::text($key),
            0,
            is_numeric($createdAt) ? (float) $createdAt : microtime(true),
        );
    }

    private static function text(mixed $field): string
    {
        return \is_string($field) ? $field : '';
    }
}
