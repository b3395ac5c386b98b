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
    /** Lower-case names; RequestParser applies forUpstream()'s rules as it reads the lines. */
    public const HOP_BY_HOP = [
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
        return HeaderFilter::answer(self::pairs($headers))[0];
    }

    /**
     * @param array<array-key, array<array-key, string>> $headers
     *
     * @return list<array{string, string}>
     */
    private static function pairs(array $headers): array
    {
        $pairs = [];
        foreach ($headers as $name => $values) {
            foreach ($values as $value) {
                $pairs[] = [(string) $name, $value];
            }
        }

        return $pairs;
    }

    /**
     * An answer's field lines for the caller: the relay frames the body itself, and the
     * destination's framing, connection and X-WarmHttp-* headers never reach the caller. A
     * line that would still break the caller's framing (CR, LF or NUL, or a name that is no
     * token) is dropped, not written. The same pass collects the framing lines for
     * BodyFraming. AnswerHead::received() applies the same rules to a checked head by regex.
     *
     * @param list<array{string, string}> $fields name, value
     *
     * @return array{list<array{string, string}>, list<string>, bool} the lines kept, the Content-Length values, whether a Transfer-Encoding came
     */
    public static function answer(array $fields): array
    {
        $kept = $lengths = $named = [];
        $transferEncoding = false;
        foreach ($fields as [$name, $value]) {
            $lower = strtolower($name);
            $value = trim($value, " \t");
            if ($lower === '' || strpbrk($lower, self::NOT_IN_NAME) !== false || strpbrk($value, "\r\n\0") !== false) {
                continue;
            }
            if (isset(self::HOP_BY_HOP[$lower])) {
                match ($lower) {
                    'content-length' => $lengths[] = $value,
                    'transfer-encoding' => $transferEncoding = true,
                    'connection' => $named += self::namedByConnection($value),
                    default => null,
                };
            } elseif (strncmp($lower, 'proxy-', 6) !== 0 && strncmp($lower, 'x-warmhttp-', 11) !== 0) {
                $kept[] = [$name, $value];
            }
        }

        return [$named === [] ? $kept : self::withoutNamed($kept, $named), $lengths, $transferEncoding];
    }

    /**
     * The lines a Connection header's value makes hop-by-hop besides those always dropped
     * ("Connection: keep-alive" and "close", on most answers, name nothing more).
     *
     * @return array<string, true> lower-case names
     */
    public static function namedByConnection(string $value): array
    {
        $named = [];
        foreach (self::connectionTokens($value) as $token => $true) {
            if ($token !== '' && $token !== 'close' && !isset(self::HOP_BY_HOP[$token])) {
                $named[$token] = true;
            }
        }

        return $named;
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
