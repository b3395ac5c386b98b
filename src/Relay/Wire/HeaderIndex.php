<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Wire;

/**
 * A request's header lines by lower-case name, the first line of each name: the front reads a
 * handful of them per request (mode, token, guard, connection, Idempotency-Key, settings), and
 * a scan of every line with strcasecmp() for each of those cost ~14 k instructions per
 * dispatch (callgrind); one look-up in a table the parser fills as it reads the lines costs a
 * few hundred.
 *
 * @internal
 */
final class HeaderIndex
{
    /**
     * @param list<array{string, string}> $headers
     *
     * @return array<string, string> lower-case name => the first value
     */
    public static function of(array $headers): array
    {
        $index = [];
        foreach ($headers as [$name, $value]) {
            $index[strtolower($name)] ??= $value;
        }

        return $index;
    }
}
