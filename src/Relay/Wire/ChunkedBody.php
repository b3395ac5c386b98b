<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Wire;

/**
 * Decodes a chunked request body (curl sends one when it does not know the size upfront).
 *
 * @internal
 */
final class ChunkedBody
{
    /**
     * @return array{string, int}|null body and the offset just past it; null until complete
     *
     * @throws BadWireRequest
     */
    public static function decode(string $buffer, int $offset, int $maxBodyBytes): ?array
    {
        $body = '';
        while (true) {
            $lineEnd = strpos($buffer, "\r\n", $offset);
            if ($lineEnd === false) {
                return null;
            }
            $size = self::size(substr($buffer, $offset, $lineEnd - $offset));
            $offset = $lineEnd + 2;
            if ($size === 0) {
                return self::trailers($buffer, $offset, $body);
            }
            if (\strlen($body) + $size > $maxBodyBytes) {
                throw new BadWireRequest(413, \sprintf('The chunked body is larger than the relay accepts (--max-body=%d).', $maxBodyBytes));
            }
            if (\strlen($buffer) < $offset + $size + 2) {
                return null;
            }
            if (substr($buffer, $offset + $size, 2) !== "\r\n") {
                throw new BadWireRequest(400, 'Malformed chunked body: a chunk does not end with CRLF.');
            }
            $body .= substr($buffer, $offset, $size);
            $offset += $size + 2;
        }
    }

    /** @throws BadWireRequest */
    private static function size(string $line): int
    {
        $hex = explode(';', $line, 2)[0];
        if (preg_match('#^[0-9a-fA-F]{1,8}$#D', trim($hex)) !== 1) {
            throw new BadWireRequest(400, \sprintf('Malformed chunk size "%s".', substr($line, 0, 40)));
        }

        return (int) hexdec(trim($hex));
    }

    /** @return array{string, int}|null trailers are read and dropped */
    private static function trailers(string $buffer, int $offset, string $body): ?array
    {
        while (true) {
            $lineEnd = strpos($buffer, "\r\n", $offset);
            if ($lineEnd === false) {
                return null;
            }
            $empty = $lineEnd === $offset;
            $offset = $lineEnd + 2;
            if ($empty) {
                return [$body, $offset];
            }
        }
    }
}
