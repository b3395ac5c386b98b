<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Storage\Redis;

/**
 * Where a fleet's shared spool lives: `--spool=redis://[[user]:password@]host[:port][/db][?options]`
 * (`rediss://` for TLS), parsed into what phpredis's connect() takes. Options: `prefix` (of
 * every key, default `warmhttp:relay:`), `timeout` (connect and read, seconds, default 2),
 * `cafile` and `verify=0` (TLS). One Redis master only: Sentinel and Cluster addresses are
 * refused with what to do instead.
 *
 * @internal
 */
final readonly class RedisAddress
{
    public const DEFAULT_PREFIX = 'warmhttp:relay:';

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
    ) {}

    public static function isRedis(?string $spool): bool
    {
        return $spool !== null && preg_match('~^(rediss?|redis[+-]sentinel|sentinel|redis[+-]cluster)://~i', $spool) === 1;
    }

    /** @throws \InvalidArgumentException naming what is wrong and what to pass */
    public static function parse(string $url): self
    {
        self::refuseTopologies($url);
        $parts = parse_url($url);
        if ($parts === false || !isset($parts['host']) || str_contains($parts['host'], ',')) {
            throw new \InvalidArgumentException(\sprintf('--spool=%s is not a Redis address: expected redis://[[user]:password@]host[:port][/db][?prefix=...] (rediss:// for TLS), one host.', self::redact($url)));
        }
        $database = ltrim($parts['path'] ?? '', '/');
        if ($database !== '' && !ctype_digit($database)) {
            throw new \InvalidArgumentException(\sprintf('--spool=%s: the path must be a database number (/0 to /15), got "/%s".', self::redact($url), $database));
        }
        parse_str($parts['query'] ?? '', $query);
        $unknown = array_diff(array_keys($query), ['prefix', 'timeout', 'cafile', 'verify']);
        if ($unknown !== []) {
            throw new \InvalidArgumentException(\sprintf('--spool=%s: unknown option "%s" (known: prefix, timeout, cafile, verify).', self::redact($url), implode('", "', $unknown)));
        }
        $timeout = $query['timeout'] ?? '2';
        if (!\is_string($timeout) || !is_numeric($timeout) || (float) $timeout <= 0) {
            throw new \InvalidArgumentException(\sprintf('--spool=%s: timeout must be a number of seconds > 0.', self::redact($url)));
        }
        $prefix = $query['prefix'] ?? self::DEFAULT_PREFIX;
        $cafile = $query['cafile'] ?? null;

        return new self(
            $parts['host'],
            $parts['port'] ?? 6379,
            (int) $database,
            isset($parts['user']) && $parts['user'] !== '' ? rawurldecode($parts['user']) : null,
            isset($parts['pass']) ? rawurldecode($parts['pass']) : null,
            strtolower($parts['scheme'] ?? '') === 'rediss',
            \is_string($prefix) && $prefix !== '' ? $prefix : self::DEFAULT_PREFIX,
            (float) $timeout,
            \is_string($cafile) ? $cafile : null,
            ($query['verify'] ?? '1') !== '0',
        );
    }

    /** The address without its password, for logs and status. */
    public static function redact(string $url): string
    {
        return (string) preg_replace('~^([a-z+-]+://)([^@/]*)@~i', '$1***@', $url);
    }

    public function display(): string
    {
        return \sprintf('%s://%s:%d/%d', $this->tls ? 'rediss' : 'redis', $this->host, $this->port, $this->database);
    }

    private static function refuseTopologies(string $url): void
    {
        if (preg_match('~^(redis[+-]sentinel|sentinel)://~i', $url) === 1) {
            throw new \InvalidArgumentException(\sprintf('--spool=%s: Redis Sentinel is not supported yet. Point --spool at the current master through an address that follows failover (a Sentinel-aware proxy such as HAProxy with a role check, or a DNS name your failover updates).', self::redact($url)));
        }
        if (preg_match('~^redis[+-]cluster://~i', $url) === 1) {
            throw new \InvalidArgumentException(\sprintf('--spool=%s: Redis Cluster is not supported: the spool\'s keys (stream, schedule, leases) must live on one node. Use one Redis master (with replicas and Sentinel for failover).', self::redact($url)));
        }
    }
}
