<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Storage;

/**
 * One accepted request as the journal holds it:
 *
 *     marker (4 bytes, MARKER) | payload length (4) | CRC32 of the payload (4) | CRC32 of the 12 bytes before (4) | payload
 *
 * big-endian, the payload in RequestBytes' binary form (bytes kept as they came: a signed
 * webhook's header with byte 0xFF arrives as sent). The marker lets a reader find the next
 * record after a damaged one; the header's own checksum tells a damaged length (skip, look for
 * the next marker) from a record still being written (wait for it).
 *
 * Segments written before the marker (length | CRC32 | JSON payload) are still read ($legacy):
 * the reader takes a segment without a single marker for one of those (their JSON is ASCII, and
 * their lengths are far below 0xF7000000, so they hold no marker).
 *
 * @internal
 */
final class JournalRecord
{
    public const MARKER = "\xF7WJ\x02";

    public const HEADER_BYTES = 16;

    private const LEGACY_HEADER_BYTES = 8;

    /** Lengths above this are damage: the relay takes bodies of at most --max-body (10 MiB by default). */
    private const MAX_PAYLOAD_BYTES = 1 << 30;

    public static function encode(SpooledRequest $request): string
    {
        $payload = RequestBytes::encode($request);
        $head = self::MARKER . pack('NN', \strlen($payload), crc32($payload));

        return $head . pack('N', crc32($head)) . $payload;
    }

    /**
     * What the bytes at $offset hold: a whole record's length (> 0), 0 when it is not all there
     * yet (cut short, or still being written), or -1 when they are damaged.
     */
    public static function check(string $bytes, int $offset, bool $legacy = false): int
    {
        $available = \strlen($bytes) - $offset;
        if ($legacy) {
            return self::checkLegacy($bytes, $offset, $available);
        }
        if ($available < 4) {
            return 0;
        }
        if (substr_compare($bytes, self::MARKER, $offset, 4) !== 0) {
            return -1;
        }
        if ($available < self::HEADER_BYTES) {
            return 0;
        }
        /** @var array{1: int, 2: int, 3: int} $header */
        $header = unpack('N3', $bytes, $offset + 4);
        [1 => $length, 2 => $crc, 3 => $headerCrc] = $header;
        if (crc32(substr($bytes, $offset, 12)) !== $headerCrc || $length > self::MAX_PAYLOAD_BYTES) {
            return -1;
        }
        if ($available < self::HEADER_BYTES + $length) {
            return 0;
        }

        return crc32(substr($bytes, $offset + self::HEADER_BYTES, $length)) === $crc ? self::HEADER_BYTES + $length : -1;
    }

    /** The bytes the record at $offset takes, when it is whole and intact; null otherwise. */
    public static function wholeLength(string $bytes, int $offset, bool $legacy = false): ?int
    {
        $length = self::check($bytes, $offset, $legacy);

        return $length > 0 ? $length : null;
    }

    /**
     * @return array{SpooledRequest, int}|null the request and the bytes it took; null when the
     *                                          bytes from $offset do not hold a whole, intact record
     */
    public static function decode(string $bytes, int $offset, bool $legacy = false): ?array
    {
        $whole = self::wholeLength($bytes, $offset, $legacy);
        if ($whole === null) {
            return null;
        }
        $headerBytes = $legacy ? self::LEGACY_HEADER_BYTES : self::HEADER_BYTES;
        $payload = substr($bytes, $offset + $headerBytes, $whole - $headerBytes);
        $request = $legacy ? RequestBytes::decodeLegacyJson($payload) : RequestBytes::decode($payload);

        return $request === null ? null : [$request, $whole];
    }

    /**
     * How many bytes the record at $offset takes by its header, when the header is intact (the
     * payload may be damaged); null when the header itself cannot be trusted.
     */
    public static function extent(string $bytes, int $offset): ?int
    {
        if (\strlen($bytes) - $offset < self::HEADER_BYTES || substr_compare($bytes, self::MARKER, $offset, 4) !== 0) {
            return null;
        }
        /** @var array{1: int, 2: int, 3: int} $header */
        $header = unpack('N3', $bytes, $offset + 4);

        return crc32(substr($bytes, $offset, 12)) === $header[3] && $header[1] <= self::MAX_PAYLOAD_BYTES ? self::HEADER_BYTES + $header[1] : null;
    }

    /** Where the next record marker starts at or after $offset; null when there is none. */
    public static function nextMarker(string $bytes, int $offset): ?int
    {
        $at = strpos($bytes, self::MARKER, $offset);

        return $at === false ? null : $at;
    }

    /** Whether these bytes of a segment are in the format before the marker. */
    public static function isLegacy(string $segmentBytes): bool
    {
        return !str_contains($segmentBytes, self::MARKER);
    }

    /** The format before the marker: length | CRC32 | JSON. No resynchronisation possible. */
    private static function checkLegacy(string $bytes, int $offset, int $available): int
    {
        if ($available < self::LEGACY_HEADER_BYTES) {
            return 0;
        }
        /** @var array{1: int, 2: int} $header */
        $header = unpack('N2', $bytes, $offset);
        [1 => $length, 2 => $crc] = $header;
        if ($length > self::MAX_PAYLOAD_BYTES) {
            return -1;
        }
        if ($available < self::LEGACY_HEADER_BYTES + $length) {
            return 0;
        }

        return crc32(substr($bytes, $offset + self::LEGACY_HEADER_BYTES, $length)) === $crc ? self::LEGACY_HEADER_BYTES + $length : -1;
    }
}
