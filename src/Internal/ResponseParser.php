<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

use Psr\Http\Message\StreamInterface;
use WarmHttp\Response;

/**
 * Turns what curl buffered (header blocks, then the body) into a PSR-7 response.
 * With redirects or 1xx answers several header blocks precede the body: the last one counts.
 *
 * @internal
 */
final class ResponseParser
{
    private const FIELDS = '/\\A(?:[!#$%&\'*+\\-.^_`|~0-9A-Za-z]+:[ \\t\\x21-\\x7E\\x80-\\xFF]*(?:\\r\\n|\\z))+\\z/';

    /** Control characters a reason phrase must not hold (RFC 9112 4: HTAB, SP, VCHAR, obs-text). */
    private const REASON_CTL = "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0A\x0B\x0C\x0D\x0E\x0F\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1A\x1B\x1C\x1D\x1E\x1F\x7F";

    /**
     * @param array<string, mixed> $curlInfo
     *
     * @throws MalformedResponse
     */
    public static function parse(string $raw, int $headerSize, array $curlInfo, ?StreamInterface $body = null): Response
    {
        $head = rtrim(substr($raw, 0, $headerSize));
        self::checkLineEnds($head);
        $last = strrpos($head, "\r\n\r\n");
        $head = $last === false ? $head : substr($head, $last + 4);
        $eol = strpos($head, "\r\n");
        $statusLine = $eol === false ? $head : substr($head, 0, $eol);
        $fields = $eol === false ? '' : substr($head, $eol + 2);
        [$version, $status, $reason] = self::statusLine($statusLine);
        self::checkFields($fields);
        $lines = $fields === '' ? [] : explode("\r\n", $fields);

        return new Response(new ParsedResponse($status, $reason, $version, $lines, $body ?? new MemoryStream(substr($raw, $headerSize))), $curlInfo);
    }

    /** @return array{string, int, string} */
    private static function statusLine(string $line): array
    {
        // "HTTP/1.1 200 OK", "HTTP/2 200": split by hand, a regex here cost 1-3 µs per response
        $space = strpos($line, ' ');
        $version = $space === false ? '' : substr($line, 5, $space - 5);
        $code = $space === false ? '' : substr($line, $space + 1, 3);
        $rest = (string) substr($line, $space + 4);
        if (!str_starts_with($line, 'HTTP/') || !\in_array($version, ['1.0', '1.1', '2', '3'], true)
            || \strlen($code) !== 3 || !ctype_digit($code) || ($rest !== '' && $rest[0] !== ' ')) {
            throw new MalformedResponse('the response has a malformed status line ' . json_encode(substr($line, 0, 80)));
        }
        if ($code < '100' || $code > '599') {
            throw new MalformedResponse(\sprintf('the response has status %s, outside 100-599', $code));
        }
        if (strcspn($rest, self::REASON_CTL) !== \strlen($rest)) {
            // libcurl 7.88 passes a CR inside the status line on: written back to a relay
            // caller, it would start a header of the destination's choosing.
            throw new MalformedResponse('the response has a control character in its status line ' . json_encode(substr($line, 0, 80)));
        }

        return [$version, (int) $code, ltrim($rest, ' ')];
    }

    /**
     * libcurl 7.88 accepts lines ended by a bare LF: the whole head would then be read as one
     * status line whose reason holds every header. Each LF must close a CRLF.
     */
    private static function checkLineEnds(string $head): void
    {
        if (substr_count($head, "\n") !== substr_count($head, "\r\n")) {
            throw new MalformedResponse('the response head has a line ended by a bare LF instead of CRLF');
        }
    }

    /**
     * All header lines at once, by one regex: a token, a colon, then visible characters, space,
     * tab or obs-text (RFC 9110 5.5, the rule nyholm applies).
     */
    private static function checkFields(string $fields): void
    {
        if ($fields === '' || preg_match(self::FIELDS, $fields) === 1) {
            return;
        }
        foreach (explode("\r\n", $fields) as $line) {
            if (preg_match(self::FIELDS, $line) !== 1) {
                throw new MalformedResponse('the response has a malformed header line ' . json_encode(substr($line, 0, 80)));
            }
        }
    }
}
