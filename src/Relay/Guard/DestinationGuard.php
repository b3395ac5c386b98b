<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Guard;

/**
 * The SSRF guard. It resolves the destination host itself, checks the address, and returns it so
 * the caller pins curl to exactly that address (CURLOPT_RESOLVE): a DNS answer that changes
 * between the check and the connect (rebinding) cannot reach a refused range.
 *
 * @internal
 */
final class DestinationGuard
{
    /**
     * Ranges never connected to by default. FILTER_FLAG_GLOBAL_RANGE (PHP 8.2) covers most of
     * them but lets multicast through (checked on 8.2.35), so the list is explicit.
     */
    private const REFUSED = [
        '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12',
        '192.0.0.0/24', '192.168.0.0/16', '198.18.0.0/15', '224.0.0.0/4', '240.0.0.0/4',
        '::/128', '::1/128', '::ffff:0:0/96', '64:ff9b::/96', '100::/64', 'fc00::/7', 'fe80::/10', 'ff00::/8',
    ];

    /** Resolutions are reused this long: gethostbynamel() blocks the loop, and gives no TTL. */
    private const CACHE_SECONDS = 30.0;

    /** @var array<string, array{string, float}> host => address, expiry */
    private array $cache = [];

    /** @param list<string> $allowedHosts exact names, or "*.example.com" for subdomains */
    public function __construct(private readonly bool $allowPrivate, private readonly array $allowedHosts) {}

    /**
     * @return string the address to connect to
     *
     * @throws RefusedDestination
     * @throws UnresolvableHost
     */
    public function check(string $host): string
    {
        $host = strtolower(trim($host, '[]'));
        $address = $this->resolve($host);
        if ($this->allowPrivate || $this->isAllowedHost($host) || self::isPublic($address)) {
            return $address;
        }

        throw new RefusedDestination(\sprintf(
            'Refused destination "%s": it resolves to %s, a loopback, private, link-local, CGNAT, metadata or reserved address. Start the relay with --allow-host=%s or --allow-private-networks to permit it.',
            $host,
            $address,
            $host,
        ));
    }

    public static function isPublic(string $address): bool
    {
        $binary = inet_pton($address);
        if ($binary === false) {
            return false;
        }
        if (\strlen($binary) === 16 && str_starts_with($binary, str_repeat("\0", 10) . "\xff\xff")) {
            return self::isPublic((string) inet_ntop(substr($binary, 12))); // IPv4-mapped
        }
        foreach (self::REFUSED as $cidr) {
            if (self::inRange($binary, $cidr)) {
                return false;
            }
        }

        return filter_var($address, \FILTER_VALIDATE_IP, \FILTER_FLAG_GLOBAL_RANGE) !== false;
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
            $allowed = strtolower($allowed);
            if ($allowed === $host || (str_starts_with($allowed, '*.') && str_ends_with($host, substr($allowed, 1)))) {
                return true;
            }
        }

        return false;
    }

    private static function inRange(string $binary, string $cidr): bool
    {
        [$network, $bits] = explode('/', $cidr);
        $net = (string) inet_pton($network);
        if (\strlen($net) !== \strlen($binary)) {
            return false;
        }
        $bytes = intdiv((int) $bits, 8);
        $rest = (int) $bits % 8;
        if (substr($binary, 0, $bytes) !== substr($net, 0, $bytes)) {
            return false;
        }
        if ($rest === 0) {
            return true;
        }
        $mask = (0xFF << (8 - $rest)) & 0xFF;

        return (\ord($binary[$bytes]) & $mask) === (\ord($net[$bytes]) & $mask);
    }
}
