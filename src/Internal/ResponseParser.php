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

    private const BARE_LF = 'the response head has a line ended by a bare LF instead of CRLF';

    /** Control characters a reason phrase must not hold (RFC 9112 4: HTAB, SP, VCHAR, obs-text). */
    private const REASON_CTL = "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0A\x0B\x0C\x0D\x0E\x0F\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1A\x1B\x1C\x1D\x1E\x1F\x7F";

    /**
     * @param array<string, mixed> $curlInfo
     *
     * @throws MalformedResponse
     */
    public static function parse(string $raw, int $headerSize, array $curlInfo, ?StreamInterface $body = null): Response
    {
        $response = Response::ofHttp2($raw, $headerSize, $curlInfo, $body);
        if ($response !== null) {
            return $response;
        }
        $head = rtrim(substr($raw, 0, $headerSize));
        $last = strrpos($head, "\r\n\r\n");
        $head = $last === false ? $head : substr($head, $last + 4);
        $eol = strpos($head, "\r\n");
        $statusLine = $eol === false ? $head : substr($head, 0, $eol);
        $fields = $eol === false ? '' : substr($head, $eol + 2);
        [$version, $status, $reason] = self::statusLine($statusLine);
        self::checkFields($fields);
        $lines = $fields === '' ? [] : explode("\r\n", $fields);

        return Response::ofHead($status, $reason, $version, $lines, $body ?? new MemoryStream(substr($raw, $headerSize)), $curlInfo);
    }

    /**
     * Refuses a head as parse() would, with its words (the relay's AnswerHead, which reads a
     * sync answer's head by one pattern, asks this for why one failed it).
     *
     * @param string $fields the field lines, CRLF between them
     *
     * @throws MalformedResponse
     */
    public static function checkHead(string $statusLine, string $fields): void
    {
        self::statusLine($statusLine);
        self::checkFields($fields);
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
        $status = (int) $code;
        if ($status < 100 || $status > 599) {
            throw new MalformedResponse(\sprintf('the response has status %s, outside 100-599', $code));
        }
        if ($rest !== '' && !ctype_print($rest)) {
            self::checkReason($line, $rest);
        }

        return [$version, $status, ltrim($rest, ' ')];
    }

    /**
     * ctype_print() passes most reasons in a few ns (no locale makes a control printable);
     * strcspn() over the control characters costs ~120 ns, so it runs only for reasons with
     * tabs, obs-text or controls. libcurl 7.88 passes
     * a CR inside the status line on, and accepts lines ended by a bare LF: the whole head then
     * lands here, as one status line whose reason holds every header. Written back to a relay
     * caller, either starts headers of the destination's choosing.
     */
    private static function checkReason(string $line, string $reason): void
    {
        if (strcspn($reason, self::REASON_CTL) === \strlen($reason)) {
            return;
        }
        throw new MalformedResponse(str_contains($reason, "\n")
            ? self::BARE_LF
            : 'the response has a control character in its status line ' . json_encode(substr($line, 0, 80)));
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
            if (str_contains($line, "\n")) {
                throw new MalformedResponse(self::BARE_LF);
            }
            if (preg_match(self::FIELDS, $line) !== 1) {
                throw new MalformedResponse('the response has a malformed header line ' . json_encode(substr($line, 0, 80)));
            }
        }
    }
}
