<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Guard;

/**
 * The spellings of an IPv4 address that inet_aton(), glibc's resolver and curl's URL parser
 * accept besides a.b.c.d: one to four parts, each decimal, octal (leading 0) or hexadecimal
 * (0x), the last one filling the remaining bytes ("2130706433", "0177.0.0.1", "0x7f.1" and
 * "127.1" are all 127.0.0.1). The guard refuses them at the door rather than guess.
 *
 * @internal
 */
final class Ipv4Spelling
{
    /**
     * @return string|null the address in dotted-decimal form, or null when $host is no IPv4
     *                     spelling at all
     */
    public static function parse(string $host): ?string
    {
        $parts = explode('.', $host);
        if (\count($parts) > 4) {
            return null;
        }
        $values = [];
        foreach ($parts as $part) {
            $value = self::number($part);
            if ($value === null) {
                return null;
            }
            $values[] = $value;
        }
        $last = array_pop($values);
        foreach ($values as $value) {
            if ($value > 255) {
                return null;
            }
        }
        if ($last >= 256 ** (4 - \count($values))) {
            return null;
        }

        return self::dotted($values, $last);
    }

    /**
     * The WHATWG URL rule: a host whose last label is a number is meant as an IPv4 address, so
     * "1.2.3.4.5" or "example.0x10" is neither an address nor a name.
     */
    public static function endsInANumber(string $host): bool
    {
        $labels = explode('.', $host);

        return self::number((string) end($labels)) !== null;
    }

    private static function number(string $part): ?int
    {
        // Eleven digits exceed 2^32 in every base: no overflow below.
        if ($part === '' || \strlen($part) > 12) {
            return null;
        }
        if (preg_match('/^0x([0-9a-f]*)$/i', $part, $hex) === 1) {
            return $hex[1] === '' ? 0 : (int) hexdec($hex[1]);
        }
        if (preg_match('/^0[0-7]*$/', $part) === 1) {
            return (int) octdec($part);
        }

        return preg_match('/^[1-9][0-9]*$/', $part) === 1 ? (int) $part : null;
    }

    /** @param list<int> $leading */
    private static function dotted(array $leading, int $last): string
    {
        $bytes = $leading;
        for ($shift = 8 * (3 - \count($leading)); $shift >= 0; $shift -= 8) {
            $bytes[] = ($last >> $shift) & 0xFF;
        }

        return implode('.', $bytes);
    }
}
