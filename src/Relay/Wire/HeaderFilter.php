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
        'connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade',
        'content-length', 'expect', 'host',
    ];

    /** Bytes no header name may hold: separators a forged name would need (RFC 9110 5.6.2). */
    private const NOT_IN_NAME = "\0\t\n\r \"(),/:;<=>?@[\\]{}\x7F";

    /**
     * @param list<array{string, string}> $headers
     *
     * @return list<array{string, string}>
     */
    public static function forUpstream(array $headers): array
    {
        $named = self::connectionTokens($headers);
        $kept = [];
        foreach ($headers as [$name, $value]) {
            $lower = strtolower($name);
            if (\in_array($lower, self::HOP_BY_HOP, true) || isset($named[$lower])
                || str_starts_with($lower, 'proxy-') || str_starts_with($lower, 'x-warmhttp-')) {
                continue;
            }
            $kept[] = [$name, $value];
        }

        return $kept;
    }

    /**
     * Response headers passed back in sync mode: the relay frames the body itself, and the
     * destination's framing, connection and X-WarmHttp-* headers never reach the caller. The
     * head was checked line by line (ResponseParser); a line that would still break the
     * caller's framing (CR, LF or NUL, or a name that is no token) is dropped, not written.
     *
     * @param array<string, list<string>> $headers
     *
     * @return list<array{string, string}>
     */
    public static function forCaller(array $headers): array
    {
        $lines = [];
        foreach ($headers as $name => $values) {
            $name = (string) $name;
            if ($name === '' || strpbrk($name, self::NOT_IN_NAME) !== false) {
                continue;
            }
            foreach ($values as $value) {
                if (strpbrk($value, "\r\n\0") === false) {
                    $lines[] = [$name, $value];
                }
            }
        }

        return self::forUpstream($lines);
    }

    /**
     * "Connection: X-Foo" makes X-Foo hop-by-hop too.
     *
     * @param list<array{string, string}> $headers
     *
     * @return array<string, true>
     */
    private static function connectionTokens(array $headers): array
    {
        $tokens = [];
        foreach ($headers as [$name, $value]) {
            if (strcasecmp($name, 'Connection') === 0) {
                foreach (explode(',', $value) as $token) {
                    $tokens[strtolower(trim($token))] = true;
                }
            }
        }

        return $tokens;
    }
}
