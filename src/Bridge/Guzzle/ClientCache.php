<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use WarmHttp\Client;

/**
 * One WarmHttp Client per distinct option set. Clients are cheap (the pool is process-wide);
 * caching them only saves validating the same options on every request.
 *
 * @internal
 */
final class ClientCache
{
    /** Laravel builds a fresh option array per request; a handful of distinct sets is normal. */
    private const MAX_CLIENTS = 64;

    /** @var array<string, Client> */
    private array $clients = [];

    /** @var array<string, mixed> */
    private readonly array $base;

    /** @param array<string, mixed> $base */
    public function __construct(array $base)
    {
        // The bridge decodes Guzzle's way itself (ContentDecoding, per decode_content): the
        // Client's own decoding would decode the body twice. Guzzle sets no timeout of its own
        // (libcurl's 300 s connect limit aside): the Client's 30 s / 10 s defaults would fail a
        // 31 s answer that Guzzle waits for. Laravel's 30 s / 10 s come per request.
        $this->base = ['decode_content' => false] + $base + ['timeout' => 0.0, 'connect_timeout' => 0.0];
        $this->clients[''] = new Client($this->base);
    }

    /** @param array<string, mixed> $perRequest options derived from Guzzle's request options */
    public function for(array $perRequest): Client
    {
        if (($perRequest['http_version'] ?? null) === '2-upgrade' && ($this->base['relay_sync'] ?? false) === true) {
            // The relay asks for 1.1 or prior-knowledge h2 only: the request goes in HTTP/1.1,
            // as Guzzle's does with a server that ignores the h2c offer.
            $perRequest['http_version'] = '1.1';
        }
        if (isset($perRequest['progress']) || isset($perRequest['debug'])) {
            // A callback or a stream: no key to cache by (serialize() refuses closures), and
            // each request's own; the Client is built for this request alone.
            return new Client($perRequest + $this->base);
        }
        ksort($perRequest);
        $key = $perRequest === [] ? '' : serialize($perRequest);
        if (isset($this->clients[$key])) {
            return $this->clients[$key];
        }
        if (\count($this->clients) >= self::MAX_CLIENTS) {
            $this->clients = \array_slice($this->clients, 0, 1, true);
        }

        return $this->clients[$key] = new Client($perRequest + $this->base);
    }
}
