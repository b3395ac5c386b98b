<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Storage\Redis;

/**
 * Where a fleet's shared spool lives, parsed into what phpredis takes:
 *
 * - `redis://[[user]:password@]host[:port][/db][?options]` (`rediss://` for TLS): one master
 * - `redis+sentinel://[[user]:password@]sentinel1[:port],sentinel2[:port]/service[/db][?options]`:
 *   the master Sentinel names for `service` (port 26379 by default), asked again after every
 *   failure, so a failover moves the fleet to the new master; the password is the master's
 *   (phpredis 5.3's RedisSentinel cannot authenticate to the Sentinels themselves)
 *
 * Options: `prefix` (of every key, default `warmhttp:relay:`), `timeout` (connect and read,
 * seconds, default 2), `cafile` and `verify=0` (TLS). Redis Cluster is refused: the spool's
 * keys must live on one node.
 *
 * @internal
 */
final readonly class RedisAddress
{
    public const DEFAULT_PREFIX = 'warmhttp:relay:';

    private const URL = '~^(?<scheme>[a-z+-]+)://(?:(?<userinfo>.*)@)?(?<hosts>[^/?#]*)(?<path>/[^?#]*)?(?:\?(?<query>[^#]*))?$~i';

    /** @param list<array{string, int}> $sentinels host and port of each Sentinel; [] for a plain address */
    private function __construct(
        public string $host,
        public int $port,
        public int $database,
        public ?string $user,
        public ?string $password,
        public bool $tls,
        public string $prefix,
        public float $timeout,
        public ?string $cafile,
        public bool $verify,
        public array $sentinels = [],
        public ?string $service = null,
    ) {}

    public static function isRedis(?string $spool): bool
    {
        return $spool !== null && preg_match('~^(rediss?|redis[+-]sentinel|sentinel|redis[+-]cluster)://~i', $spool) === 1;
    }

    /** @throws \InvalidArgumentException naming what is wrong and what to pass */
    public static function parse(string $url): self
    {
        if (preg_match('~^redis[+-]cluster://~i', $url) === 1) {
            throw new \InvalidArgumentException(\sprintf('--spool=%s: Redis Cluster is not supported: the spool\'s keys (stream, schedule, leases) must live on one node. Use one Redis master, with replicas and Sentinel (redis+sentinel://) for failover.', self::redact($url)));
        }
        if (preg_match(self::URL, $url, $parts) !== 1 || $parts['hosts'] === '') {
            throw new \InvalidArgumentException(\sprintf('--spool=%s is not a Redis address: expected redis://[[user]:password@]host[:port][/db][?prefix=...] (rediss:// for TLS) or redis+sentinel://[password@]sentinel[:port][,sentinel...]/service[/db].', self::redact($url)));
        }
        $sentinel = preg_match('~^(redis[+-]sentinel|sentinel)$~i', $parts['scheme']) === 1;
        $hosts = self::hosts($url, $parts['hosts'], $sentinel ? 26379 : 6379);
        [$service, $database] = self::path($url, $parts['path'] ?? '', $sentinel);
        if (!$sentinel && \count($hosts) > 1) {
            throw new \InvalidArgumentException(\sprintf('--spool=%s: one host only; for several, name Sentinels: redis+sentinel://sentinel1,sentinel2/service.', self::redact($url)));
        }
        [$user, $password] = self::credentials($parts['userinfo']);
        $query = self::query($url, $parts['query'] ?? '');

        return new self(
            $sentinel ? '' : $hosts[0][0],
            $sentinel ? 0 : $hosts[0][1],
            $database,
            $user,
            $password,
            strtolower($parts['scheme']) === 'rediss',
            $query['prefix'],
            $query['timeout'],
            $query['cafile'],
            $query['verify'],
            $sentinel ? $hosts : [],
            $service,
        );
    }

    /**
     * The address without its password, for logs and status: everything up to the last "@" is
     * user info, as parse() reads it, so a password holding "/", "?", "#" or an unencoded "@"
     * is hidden whole (it showed from its "/" on before, and parse() then refused the address
     * and printed it).
     */
    public static function redact(string $url): string
    {
        return (string) preg_replace('~^([a-z+-]+://).*@~is', '$1***@', $url);
    }

    public function display(): string
    {
        if ($this->sentinels !== []) {
            return \sprintf('redis+sentinel://%s/%s/%d', implode(',', array_map(static fn(array $s): string => $s[0] . ':' . $s[1], $this->sentinels)), $this->service, $this->database);
        }

        return \sprintf('%s://%s:%d/%d', $this->tls ? 'rediss' : 'redis', $this->host, $this->port, $this->database);
    }

    /** The same address with the master Sentinel named. */
    public function withMaster(string $host, int $port): self
    {
        return new self($host, $port, $this->database, $this->user, $this->password, $this->tls, $this->prefix, $this->timeout, $this->cafile, $this->verify, $this->sentinels, $this->service);
    }

    /** @return non-empty-list<array{string, int}> */
    private static function hosts(string $url, string $hosts, int $defaultPort): array
    {
        $list = [];
        foreach (explode(',', $hosts) as $host) {
            if (preg_match('~^(?<name>\[[0-9a-f:.]+\]|[^:\[\]]+)(?::(?<port>\d{1,5}))?$~i', $host, $m) !== 1 || (int) ($m['port'] ?? 1) > 65535 || ($m['port'] ?? null) === '0') {
                throw new \InvalidArgumentException(\sprintf('--spool=%s: "%s" is not a host[:port].', self::redact($url), $host));
            }
            $list[] = [trim($m['name'], '[]'), is_numeric($m['port'] ?? null) ? (int) $m['port'] : $defaultPort];
        }

        return $list;
    }

    /** @return array{?string, int} the Sentinel service, and the database number */
    private static function path(string $url, string $path, bool $sentinel): array
    {
        $segments = array_values(array_filter(explode('/', $path), static fn(string $s): bool => $s !== ''));
        $service = $sentinel ? array_shift($segments) : null;
        if ($sentinel && $service === null) {
            throw new \InvalidArgumentException(\sprintf('--spool=%s: name the master\'s service after the Sentinels: redis+sentinel://sentinel1,sentinel2/mymaster[/db].', self::redact($url)));
        }
        $database = $segments[0] ?? '0';
        if (\count($segments) > 1 || !ctype_digit($database)) {
            throw new \InvalidArgumentException(\sprintf('--spool=%s: the path must be %sa database number (/0 to /15), got "%s".', self::redact($url), $sentinel ? 'the service then ' : '', $path));
        }

        return [$service, (int) $database];
    }

    /** @return array{?string, ?string} user and password, percent-decoded */
    private static function credentials(string $userinfo): array
    {
        if ($userinfo === '') {
            return [null, null];
        }
        [$user, $password] = str_contains($userinfo, ':') ? explode(':', $userinfo, 2) : ['', $userinfo];

        return [$user === '' ? null : rawurldecode($user), rawurldecode($password)];
    }

    /** @return array{prefix: string, timeout: float, cafile: ?string, verify: bool} */
    private static function query(string $url, string $query): array
    {
        parse_str($query, $options);
        $unknown = array_diff(array_keys($options), ['prefix', 'timeout', 'cafile', 'verify']);
        if ($unknown !== []) {
            throw new \InvalidArgumentException(\sprintf('--spool=%s: unknown option "%s" (known: prefix, timeout, cafile, verify).', self::redact($url), implode('", "', $unknown)));
        }
        $timeout = $options['timeout'] ?? '2';
        if (!\is_string($timeout) || !is_numeric($timeout) || (float) $timeout <= 0) {
            throw new \InvalidArgumentException(\sprintf('--spool=%s: timeout must be a number of seconds > 0.', self::redact($url)));
        }
        $prefix = $options['prefix'] ?? null;
        $cafile = $options['cafile'] ?? null;

        return [
            'prefix' => \is_string($prefix) && $prefix !== '' ? $prefix : self::DEFAULT_PREFIX,
            'timeout' => (float) $timeout,
            'cafile' => \is_string($cafile) ? $cafile : null,
            'verify' => ($options['verify'] ?? '1') !== '0',
        ];
    }
}
