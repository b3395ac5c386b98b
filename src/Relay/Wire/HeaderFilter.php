<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Wire;

/**
 * Headers that concern one hop (RFC 9110 7.6.1), the relay's own X-WarmHttp-*, and Proxy-*,
 * which must never reach the destination: curl writes its own framing and connection headers.
 *
 * @internal
 */
final class HeaderFilter
{
    private const HOP_BY_HOP = [
        'connection' => true, 'keep-alive' => true, 'te' => true, 'trailer' => true, 'transfer-encoding' => true,
        'upgrade' => true, 'content-length' => true, 'expect' => true, 'host' => true,
    ];

    /** Bytes no header name may hold: separators a forged name would need (RFC 9110 5.6.2). */
    private const NOT_IN_NAME = "\0\t\n\r \"(),/:;<=>?@[\\]{}\x7F";

    /**
     * One pass over the lines (a table look-up and two prefix compares each, ~2 k instructions
     * for a dispatch's headers where in_array() and a second pass for Connection cost ~7 k);
     * the lines a Connection header names go in a second pass, only when there is one.
     *
     * @param list<array{string, string}> $headers
     * @param array<string, true>         $alsoDrop more names to drop, lower-case (the async
     *                                              path's Idempotency-Key, which it stores apart)
     *
     * @return list<array{string, string}>
     */
    public static function forUpstream(array $headers, array $alsoDrop = []): array
    {
        $kept = [];
        $named = [];
        foreach ($headers as $header) {
            $lower = strtolower($header[0]);
            if (isset(self::HOP_BY_HOP[$lower]) || isset($alsoDrop[$lower]) || strncmp($lower, 'proxy-', 6) === 0 || strncmp($lower, 'x-warmhttp-', 11) === 0) {
                if ($lower === 'connection') {
                    $named += self::connectionTokens($header[1]);
                }
                continue;
            }
            $kept[] = $header;
        }

        return $named === [] ? $kept : self::withoutNamed($kept, $named);
    }

    /**
     * Response headers passed back in sync mode (AnswerHead::fromHeaders()).
     *
     * @param array<array-key, array<array-key, string>> $headers
     *
     * @return list<array{string, string}>
     */
    public static function forCaller(array $headers): array
    {
        return AnswerHead::fromHeaders($headers)->lines;
    }

    /**
     * An answer's field lines for the caller, in one pass: the relay frames the body itself,
     * and the destination's framing, connection and X-WarmHttp-* headers never reach the
     * caller. The head was checked line by line (ResponseParser); a line that would still
     * break the caller's framing (CR, LF or NUL, or a name that is no token) is dropped, not
     * written. The same pass collects the framing lines for BodyFraming.
     *
     * @param list<array{string, string}> $fields
     *
     * @return array{list<array{string, string}>, list<string>, bool} the lines kept, the Content-Length values, whether a Transfer-Encoding came
     */
    public static function answer(array $fields): array
    {
        $kept = $lengths = $named = [];
        $transferEncoding = false;
        foreach ($fields as $field) {
            $lower = strtolower($field[0]);
            if ($lower === 'content-length') {
                $lengths[] = $field[1];
            } elseif ($lower === 'transfer-encoding') {
                $transferEncoding = true;
            } elseif ($lower === 'connection') {
                $named += self::connectionTokens($field[1]);
            } elseif ($lower !== '' && !isset(self::HOP_BY_HOP[$lower]) && strncmp($lower, 'proxy-', 6) !== 0 && strncmp($lower, 'x-warmhttp-', 11) !== 0
                && strpbrk($lower, self::NOT_IN_NAME) === false && strpbrk($field[1], "\r\n\0") === false) {
                $kept[] = $field;
            }
        }

        return [$named === [] ? $kept : self::withoutNamed($kept, $named), $lengths, $transferEncoding];
    }

    /**
     * "Connection: X-Foo" makes X-Foo hop-by-hop too.
     *
     * @return array<string, true>
     */
    private static function connectionTokens(string $value): array
    {
        $tokens = [];
        foreach (explode(',', $value) as $token) {
            $tokens[strtolower(trim($token))] = true;
        }

        return $tokens;
    }

    /**
     * @param list<array{string, string}> $headers
     * @param array<string, true>         $named
     *
     * @return list<array{string, string}>
     */
    private static function withoutNamed(array $headers, array $named): array
    {
        $kept = [];
        foreach ($headers as $header) {
            if (!isset($named[strtolower($header[0])])) {
                $kept[] = $header;
            }
        }

        return $kept;
    }
}
