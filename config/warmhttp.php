<?php

declare(strict_types=1);

/*
 * WarmHttp for Laravel (php artisan vendor:publish --tag=warmhttp-config).
 * `client` holds WarmHttp\Client options (README, "Options"); unknown names are refused.
 * Laravel's Http sets timeout 30 s and connect_timeout 10 s per request; ->timeout() and
 * ->connectTimeout() still win, per request.
 */

$int = static fn(string $name): ?int => is_numeric($value = env($name)) ? (int) $value : null;
$seconds = static fn(string $name, float $default): float => is_numeric($value = env($name)) ? (float) $value : $default;

return [
    // false: the Http facade keeps Guzzle's default handler (a new connection per request).
    'enabled' => (bool) env('WARMHTTP_ENABLED', true),

    'client' => [
        // null: HTTP/2 over TLS when the server offers it (ALPN), else HTTP/1.1; or '1.1', '2'.
        'http_version' => env('WARMHTTP_HTTP_VERSION'),
        // Caps for the whole process-wide pool (null: libcurl's defaults, no cap).
        'max_host_connections' => $int('WARMHTTP_MAX_HOST_CONNECTIONS'),
        'max_total_connections' => $int('WARMHTTP_MAX_TOTAL_CONNECTIONS'),
        // Retire idle connections before servers drop them (most close after 60 s).
        'max_idle_seconds' => $int('WARMHTTP_MAX_IDLE_SECONDS') ?? 50,
        // For Http::dispatch() and direct WarmHttp\Client use; Http requests set their own.
        'timeout' => $seconds('WARMHTTP_TIMEOUT', 30.0),
        'connect_timeout' => $seconds('WARMHTTP_CONNECT_TIMEOUT', 10.0),
        // The relay (php vendor/bin/warmhttp relay): unix:///run/warmhttp/relay.sock or tcp://127.0.0.1:PORT.
        'relay' => env('WARMHTTP_RELAY'),
        'relay_token' => env('WARMHTTP_RELAY_TOKEN'),
        // true: every Http request goes through the relay's warm connections (for PHP-FPM).
        'relay_sync' => (bool) env('WARMHTTP_RELAY_SYNC', false),
        // When the relay cannot take a dispatch(), the app sends it itself under the relay's
        // default destination policy (public addresses only): mirror the relay's
        // --allow-private-networks and --allow-host here (hosts comma-separated).
        'relay_allow_private_networks' => (bool) env('WARMHTTP_RELAY_ALLOW_PRIVATE_NETWORKS', false),
        'relay_allowed_hosts' => array_values(array_filter(array_map('trim', explode(',', is_string($hosts = env('WARMHTTP_RELAY_ALLOWED_HOSTS')) ? $hosts : '')))),
        // Where such fallbacks are journaled until sent (null: <temp dir>/warmhttp-<uid>/fallback).
        'relay_fallback_dir' => env('WARMHTTP_RELAY_FALLBACK_DIR'),
    ],
];
