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

    /** Hosts whose verdict is kept; the one judged longest ago goes first. */
    private const VERDICTS_KEPT = 1024;

    /**
     * Verdicts by canonical host: the address, until when (monotonic seconds; never, for an IP
     * literal), and the refusal (null: allowed). A name's verdict lives exactly as long as the
     * resolution it judged: a changed DNS answer is resolved, judged and pinned anew, never let
     * through on an old verdict. Judging an address again per request cost ~11 k instructions
     * for IPv4 and ~48 k for IPv6 (callgrind).
     *
     * @var array<string, array{string, float, ?string}>
     */
    private array $verdicts = [];

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
        $now = hrtime(true) / 1e9;
        $verdict = $this->verdicts[$host] ?? null;
        if ($verdict === null || $verdict[1] <= $now) {
            $verdict = $this->judge($host, $now);
        }
        if ($verdict[2] !== null) {
            throw new RefusedDestination($verdict[2]);
        }

        return $verdict[0];
    }

    /**
     * @return array{string, float, ?string}
     *
     * @throws UnresolvableHost not kept: the next request resolves again
     */
    private function judge(string $host, float $now): array
    {
        $bare = trim($host, '[]');
        $literal = filter_var($bare, \FILTER_VALIDATE_IP) !== false;
        $address = $literal ? $bare : (self::lookup($bare) ?? throw new UnresolvableHost(\sprintf('Could not resolve host "%s".', $bare)));
        $why = $this->allowPrivate || $this->isAllowedHost($host) ? null : SpecialPurposeAddresses::classify($address);
        $verdict = [$address, $literal ? \INF : $now + self::CACHE_SECONDS, $why === null ? null : \sprintf(
            'Refused destination "%s": it resolves to %s, and %s: the relay does not connect to loopback, private, link-local, CGNAT, metadata or reserved addresses. Start the relay with --allow-host=%s or --allow-private-networks to permit it.',
            $host,
            $address,
            $why,
            $host,
        )];
        unset($this->verdicts[$host]);
        if (\count($this->verdicts) >= self::VERDICTS_KEPT) {
            unset($this->verdicts[array_key_first($this->verdicts)]);
        }

        return $this->verdicts[$host] = $verdict;
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
