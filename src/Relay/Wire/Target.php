<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Wire;

use WarmHttp\Internal\TransferSpec;
use WarmHttp\Relay\Guard\CanonicalHost;

/**
 * The absolute-form target of a request to forward (`https://api.example.com/x?y`): scheme
 * http or https, and a host in its one canonical spelling (CanonicalHost). The URL curl is
 * given is rebuilt from the parts checked here, so curl's parser cannot find another host in
 * it than the guard checked (parse_url() and curl disagree on "\", "@" and "#" in authorities).
 *
 * @internal
 */
final readonly class Target
{
    /** Targets kept parsed: an app sends to a few endpoints, again and again. */
    private const KEPT = 256;

    /** Longer targets are parsed every time: the cache stays under ~0.5 MiB. */
    private const KEPT_LENGTH = 2048;

    private function __construct(
        /** Rebuilt from the checked parts, without fragment: what curl is given. */
        public string $url,
        public string $scheme,
        /** Canonical: a lower-case LDH name, a dotted-quad IPv4 address, or [IPv6]. */
        public string $host,
        /** The port curl connects to: the explicit one, or the scheme's default. */
        public int $port,
    ) {}

    /**
     * A target seen before is not parsed again: parsing is a pure function of the string, and
     * cost ~12 k instructions per request (callgrind), ~10% of a dispatch in the front. Only
     * targets that parse are kept; the guard's verdict is not part of a Target.
     *
     * @throws \InvalidArgumentException naming what is wrong with the target
     */
    public static function parse(string $target): self
    {
        /** @var array<string, self> $kept */
        static $kept = [];
        if (isset($kept[$target])) {
            return $kept[$target];
        }
        $parsed = self::parseNew($target);
        if (\strlen($target) <= self::KEPT_LENGTH) {
            if (\count($kept) >= self::KEPT) {
                unset($kept[array_key_first($kept)]);
            }
            $kept[$target] = $parsed;
        }

        return $parsed;
    }

    /** @throws \InvalidArgumentException */
    private static function parseNew(string $target): self
    {
        // One match for the whole target; no space or control character anywhere (checked below
        // when it fails, to say why).
        if (preg_match('/^([a-z][a-z0-9+.-]*):\/\/([^\/?#\x00-\x20\x7f]*)([^#\x00-\x20\x7f]*)(?:#[^\x00-\x20\x7f]*)?$/Di', $target, $m) !== 1) {
            self::refuseControls($target);
            throw new \InvalidArgumentException(preg_match('/^([a-z][a-z0-9+.-]*):/i', $target, $s) === 1 && !\in_array(strtolower($s[1]), ['http', 'https'], true)
                ? self::unsupported($s[1], $target)
                : \sprintf('The target "%s" is not a valid absolute URI (scheme://host/path).', self::shown($target)));
        }
        [, $scheme, $authority, $rest] = $m;
        $scheme = strtolower($scheme);
        if ($scheme !== 'http' && $scheme !== 'https') {
            throw new \InvalidArgumentException(self::unsupported($scheme, $target));
        }
        [$userinfo, $host, $port] = self::authority($authority, $target);
        if ($host === '') {
            throw new \InvalidArgumentException(\sprintf('The target "%s" names no host.', self::shown($target)));
        }
        $canonical = CanonicalHost::of($host);
        $url = $scheme . '://' . $userinfo . $canonical . ($port === null ? '' : ':' . $port) . $rest;

        return new self($url, $scheme, $canonical, $port ?? TransferSpec::defaultPort($scheme));
    }

    public function isIpLiteral(): bool
    {
        return $this->host[0] === '[' || filter_var($this->host, \FILTER_VALIDATE_IP) !== false;
    }

    /**
     * @return array{string, string, int|null} userinfo with its "@" (RFC 3986 characters only,
     *                                         so no parser splits it elsewhere), host, port
     */
    private static function authority(string $authority, string $target): array
    {
        $userinfo = '';
        $at = strrpos($authority, '@');
        if ($at !== false) {
            $userinfo = substr($authority, 0, $at + 1);
            if (preg_match('/^(?:[a-z0-9\-._~!$&\'()*+,;=:]|%[0-9a-f]{2})*@$/i', $userinfo) !== 1) {
                throw new \InvalidArgumentException(\sprintf('The user information in the target "%s" has characters that must be percent-encoded (RFC 3986).', self::shown($target)));
            }
            $authority = substr($authority, $at + 1);
        }
        if (str_starts_with($authority, '[')) {
            $close = strpos($authority, ']');
            $after = $close === false ? '' : substr($authority, $close + 1);
            if ($after !== '' && $after[0] !== ':') {
                throw new \InvalidArgumentException(\sprintf('The target "%s" has characters after its IPv6 address other than ":port".', self::shown($target)));
            }

            return [$userinfo, $close === false ? $authority : substr($authority, 0, $close + 1), self::port(substr($after, 1), $target)];
        }
        $colon = strpos($authority, ':');

        return $colon === false
            ? [$userinfo, $authority, null]
            : [$userinfo, substr($authority, 0, $colon), self::port(substr($authority, $colon + 1), $target)];
    }

    private static function port(string $port, string $target): ?int
    {
        if ($port === '') {
            return null;
        }
        if (preg_match('/^[0-9]{1,5}$/', $port) !== 1 || (int) $port < 1 || (int) $port > 65535) {
            throw new \InvalidArgumentException(\sprintf('The port "%s" in the target "%s" is not a number from 1 to 65535.', self::shown($port), self::shown($target)));
        }

        return (int) $port;
    }

    /** @throws \InvalidArgumentException when the target holds a space or control character */
    private static function refuseControls(string $target): void
    {
        if (preg_match('/[\x00-\x20\x7f]/', $target) === 1) {
            throw new \InvalidArgumentException(\sprintf('The target "%s" contains a space or control character: percent-encode it.', self::shown($target)));
        }
    }

    private static function unsupported(string $scheme, string $target): string
    {
        return \sprintf('Unsupported URI scheme "%s" in "%s": the relay forwards only http and https.', self::shown($scheme), self::shown($target));
    }

    private static function shown(string $text): string
    {
        return substr((string) preg_replace('/[\x00-\x1f\x7f]/', '?', $text), 0, 200);
    }
}
