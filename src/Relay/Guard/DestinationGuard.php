<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Guard;

/**
 * The SSRF guard. It resolves the destination host itself, checks the address, and returns it so
 * the caller pins curl to exactly that address (Upstream: CURLOPT_CONNECT_TO): a DNS answer that
 * changes between the check and the connect (rebinding) cannot reach a refused range.
 *
 * @internal
 */
final class DestinationGuard
{
    /** Resolutions are reused this long: gethostbynamel() blocks the loop, and gives no TTL. */
    private const CACHE_SECONDS = 30.0;

    /** @var array<string, array{string, float}> host => address, expiry */
    private array $cache = [];

    /** @var list<string> canonical names, or "*.example.com" for subdomains */
    private readonly array $allowedHosts;

    /**
     * @param list<string> $allowedHosts exact names, or "*.example.com" for subdomains
     *
     * @throws \InvalidArgumentException an allowed host that is no host name or address
     */
    public function __construct(private readonly bool $allowPrivate, array $allowedHosts)
    {
        $this->allowedHosts = array_map(self::allowed(...), $allowedHosts);
    }

    /**
     * @param string $host as in a URI: a name (IDNA converted), an IPv4 or an IPv6 address
     *
     * @return string the address to connect to
     *
     * @throws RefusedDestination
     * @throws UnresolvableHost
     */
    public function check(string $host): string
    {
        return $this->checkCanonical(self::canonical($host));
    }

    /**
     * check() for a host already in CanonicalHost's spelling, as a Wire\Target holds it: the
     * relay's hot path does not spell it out a second time per request.
     *
     * @return string the address to connect to
     *
     * @throws RefusedDestination
     * @throws UnresolvableHost
     */
    public function checkCanonical(string $host): string
    {
        $address = $this->resolve(trim($host, '[]'));
        if ($this->allowPrivate || $this->isAllowedHost($host)) {
            return $address;
        }
        $why = SpecialPurposeAddresses::classify($address);
        if ($why === null) {
            return $address;
        }

        throw new RefusedDestination(\sprintf(
            'Refused destination "%s": it resolves to %s, and %s: the relay does not connect to loopback, private, link-local, CGNAT, metadata or reserved addresses. Start the relay with --allow-host=%s or --allow-private-networks to permit it.',
            $host,
            $address,
            $why,
            $host,
        ));
    }

    /** Whether the relay connects to this address by default (SpecialPurposeAddresses). */
    public static function isPublic(string $address): bool
    {
        return SpecialPurposeAddresses::isPublic(trim($address, '[]'));
    }

    /**
     * The spelling curl derives from the host (IDNA), or a refusal of one it would read as
     * another name or address (percent-encoding, a final dot, inet_aton() forms, zone ids).
     *
     * @throws RefusedDestination
     */
    private static function canonical(string $host): string
    {
        if (str_contains($host, ':') && !str_starts_with($host, '[')) {
            $host = '[' . $host . ']'; // an IPv6 address as PHP's URI parsers give it
        }
        try {
            return CanonicalHost::of($host);
        } catch (\InvalidArgumentException $e) {
            throw new RefusedDestination($e->getMessage(), 0, $e);
        }
    }

    private function resolve(string $host): string
    {
        if (filter_var($host, \FILTER_VALIDATE_IP) !== false) {
            return $host;
        }
        $now = microtime(true);
        if (isset($this->cache[$host]) && $this->cache[$host][1] > $now) {
            return $this->cache[$host][0];
        }
        $address = self::lookup($host) ?? throw new UnresolvableHost(\sprintf('Could not resolve host "%s".', $host));
        $this->cache[$host] = [$address, $now + self::CACHE_SECONDS];

        return $address;
    }

    private static function lookup(string $host): ?string
    {
        $v4 = @gethostbynamel($host);
        if (\is_array($v4) && $v4 !== []) {
            return $v4[0];
        }
        $v6 = @dns_get_record($host, \DNS_AAAA);

        return \is_array($v6) && isset($v6[0]['ipv6']) && \is_string($v6[0]['ipv6']) ? $v6[0]['ipv6'] : null;
    }

    private function isAllowedHost(string $host): bool
    {
        foreach ($this->allowedHosts as $allowed) {
            if ($allowed === $host || (str_starts_with($allowed, '*.') && str_ends_with($host, substr($allowed, 1)))) {
                return true;
            }
        }

        return false;
    }

    /** An allowed host in the spelling check() compares: "Bücher.example" allows xn--bcher-kva.example. */
    private static function allowed(string $host): string
    {
        $wildcard = str_starts_with($host, '*.');
        try {
            $canonical = CanonicalHost::of($wildcard ? substr($host, 2) : trim($host));
        } catch (\InvalidArgumentException $e) {
            throw new \InvalidArgumentException(\sprintf('--allow-host=%s: %s', $host, $e->getMessage()), 0, $e);
        }

        return ($wildcard ? '*.' : '') . $canonical;
    }
}
