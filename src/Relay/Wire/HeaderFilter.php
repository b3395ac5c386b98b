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
     * Response headers passed back in sync mode: the relay frames the body itself.
     *
     * @param array<string, list<string>> $headers
     *
     * @return list<array{string, string}>
     */
    public static function forCaller(array $headers): array
    {
        $lines = [];
        foreach ($headers as $name => $values) {
            foreach ($values as $value) {
                $lines[] = [(string) $name, $value];
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
