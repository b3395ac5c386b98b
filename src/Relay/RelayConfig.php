<?php

declare(strict_types=1);

namespace WarmHttp\Relay;

use WarmHttp\Relay\Front\FrontLimits;
use WarmHttp\Relay\Storage\Redis\RedisAddress;
use WarmHttp\Relay\Worker\RetryPolicy;

/**
 * The relay daemon's settings, from `bin/warmhttp relay` options.
 *
 * @internal
 */
final readonly class RelayConfig
{
    // The built-in defaults. `relay` and the relay:* commands reach them only through
    // Console\RelayLocation, after --socket/--spool and $WARMHTTP_RELAY_SOCKET/_SPOOL.
    public const DEFAULT_SOCKET = '/run/warmhttp/relay.sock';
    public const DEFAULT_SPOOL = '/var/lib/warmhttp/relay.sqlite';

    /** With a redis:// spool: the local journal's base path (`<path>.journal/`, `<path>.lock`, ...). */
    public const DEFAULT_JOURNAL = '/var/lib/warmhttp/relay';

    /** @param list<string> $allowedHosts */
    public function __construct(
        public ?string $socketPath = self::DEFAULT_SOCKET,
        public string $spoolPath = self::DEFAULT_SPOOL,
        public ?string $tcpAddress = null,
        public ?string $token = null,
        public ?string $cafile = null,
        public bool $allowPrivateNetworks = false,
        public array $allowedHosts = [],
        public int $maxBodyBytes = 10485760,
        public RetryPolicy $retry = new RetryPolicy(),
        public int $maxInFlight = 512,
        public int $maxPerHost = 128,
        public float $timeout = 30.0,
        public float $drainTimeout = 10.0,
        public bool $fsync = false,
        public int $spoolReserveBytes = 16777216,
        public FrontLimits $limits = new FrontLimits(),
        // The destination guard on every sync request, not only those whose Client asks for
        // it (relay_sync_guard): for a relay shared with callers it does not trust.
        public bool $guardSync = false,
        // A fleet's shared spool; null: the SQLite spool at $spoolPath. With Redis, $spoolPath is
        // the base path of this relay's local journal, lock and metrics.
        public ?RedisAddress $redis = null,
        // Redis: a request another relay took and left idle this long is taken over (its relay died).
        public float $claimAfter = 60.0,
        // Redis: the 202 waits until the forwarder has put the request into Redis (a host lost
        // with its disk loses nothing acknowledged), at most $ackTimeout, then says "journal".
        public bool $ackRedis = false,
        public float $ackTimeout = 1.0,
    ) {}
}
