<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Guard;

/**
 * The one spelling of a target's host that the guard checks and curl is given: a lower-case
 * LDH name, a dotted-quad IPv4 address, or a bracketed IPv6 address. Anything that curl or the
 * resolver would turn into another name or address is converted here (IDNA) or refused,
 * naming the form to write: the guard once checked "ⓔⓥⓘⓛ.example" and "%65vil.example", which
 * resolve nowhere, while curl (UTS-46 mapping, URL decoding) connected to evil.example.
 *
 * @internal
 */
final class CanonicalHost
{
    /** RFC 1035: 255 octets on the wire, 253 characters in text without the final dot. */
    private const MAX_NAME = 253;

    /** A lower-case LDH label (RFC 1123): letters, digits, inner hyphens, 1 to 63 characters. */
    private const LABEL = '/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/D';

    /**
     * The common case in one match, before any other check: LDH labels, the last one starting
     * with a letter (so no number: every real TLD), or a dotted-quad IPv4 address.
     */
    private const PLAIN = '/^(?:(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?|(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9]))$/D';

    /**
     * @param string $host as it appears in the URI's authority (brackets around IPv6)
     *
     * @throws \InvalidArgumentException naming what is wrong and, where there is one, the form to use
     */
    public static function of(string $host): string
    {
        if (\strlen($host) <= self::MAX_NAME && preg_match(self::PLAIN, $host) === 1) {
            return $host;
        }

        return match (true) {
            $host === '' => throw new \InvalidArgumentException('The target names no host.'),
            $host[0] === '[' => self::ipv6($host),
            str_contains($host, '%') => throw self::percentEncoded($host),
            preg_match('/[^\x21-\x7e]/', $host) === 1 => self::international($host),
            default => self::ascii($host),
        };
    }

    private static function ipv6(string $host): string
    {
        $inner = substr($host, 1, -1);
        if (!str_ends_with($host, ']') || str_contains($inner, ']')) {
            throw new \InvalidArgumentException(\sprintf('The target\'s host "%s" is not a bracketed IPv6 address, e.g. [2001:db8::1].', self::shown($host)));
        }
        if (str_contains($inner, '%')) {
            throw new \InvalidArgumentException(\sprintf('The target\'s host "%s" carries a zone id (%s): the relay does not forward to an interface-scoped address; write the address without it.', self::shown($host), self::shown((string) strstr($inner, '%'))));
        }
        $binary = @inet_pton($inner);
        if ($binary === false || \strlen($binary) !== 16) {
            throw new \InvalidArgumentException(\sprintf('The target\'s host "%s" is not a valid IPv6 address.', self::shown($host)));
        }

        return '[' . inet_ntop($binary) . ']';
    }

    private static function percentEncoded(string $host): \InvalidArgumentException
    {
        $decoded = rawurldecode($host);
        try {
            $hint = \sprintf(': write it as "%s"', self::of($decoded));
        } catch (\InvalidArgumentException) {
            $hint = '';
        }

        return new \InvalidArgumentException(\sprintf('The target\'s host "%s" is percent-encoded, which curl would decode to another name than the one checked%s.', self::shown($host), $hint));
    }

    /** UTS-46 (what curl's libidn2 applies), to the ASCII form: checked and sent as that name. */
    private static function international(string $host): string
    {
        if (!\function_exists('idn_to_ascii')) {
            throw new \InvalidArgumentException(\sprintf('The target\'s host "%s" is not ASCII, and this PHP has no ext-intl to convert it: write its IDNA (xn--) form.', self::shown($host)));
        }
        $flags = \IDNA_NONTRANSITIONAL_TO_ASCII | \IDNA_USE_STD3_RULES | \IDNA_CHECK_BIDI | \IDNA_CHECK_CONTEXTJ;
        $ascii = idn_to_ascii($host, $flags, \INTL_IDNA_VARIANT_UTS46);
        if (!\is_string($ascii) || preg_match('/[^\x21-\x7e]/', $ascii) === 1) {
            throw new \InvalidArgumentException(\sprintf('The target\'s host "%s" is not a valid internationalized domain name (UTS #46).', self::shown($host)));
        }

        return self::ascii($ascii);
    }

    private static function ascii(string $host): string
    {
        $host = strtolower($host);
        if (str_ends_with($host, '.') && $host !== '.') {
            throw new \InvalidArgumentException(\sprintf('The target\'s host "%s" ends with a dot: write it as "%s".', self::shown($host), self::shown(rtrim($host, '.'))));
        }
        $ipv4 = Ipv4Spelling::parse($host);
        if ($ipv4 === $host) {
            return $host;
        }
        if ($ipv4 !== null) {
            throw new \InvalidArgumentException(\sprintf('The target\'s host "%s" is another spelling of the IPv4 address %s: write it as %s.', self::shown($host), $ipv4, $ipv4));
        }
        if (Ipv4Spelling::endsInANumber($host)) {
            throw new \InvalidArgumentException(\sprintf('The target\'s host "%s" ends in a number but is not an IPv4 address in dotted-decimal form (a.b.c.d, each 0 to 255).', self::shown($host)));
        }

        return self::name($host);
    }

    private static function name(string $host): string
    {
        if (\strlen($host) > self::MAX_NAME) {
            throw new \InvalidArgumentException(\sprintf('The target\'s host "%s..." is longer than %d characters.', self::shown($host), self::MAX_NAME));
        }
        foreach (explode('.', $host) as $label) {
            if (preg_match(self::LABEL, $label) !== 1) {
                throw new \InvalidArgumentException(\sprintf('The target\'s host "%s" is not a host name: each dot-separated label must be 1 to 63 letters, digits or inner hyphens (found "%s"), or use an IP address.', self::shown($host), self::shown($label)));
            }
        }

        return $host;
    }

    /** What of a host a message may quote: a header line carries it, so bounded, and printable. */
    private static function shown(string $text): string
    {
        return substr((string) preg_replace('/[\x00-\x1f\x7f]/', '?', $text), 0, 100);
    }
}
