<?php

declare(strict_types=1);

namespace WarmHttp\Internal\Relay;

use Psr\Log\LoggerInterface;

/**
 * Wires the relay's parts together from its configuration.
 *
 * @internal
 */
final class Assembly
{
    public static function daemon(RelayConfig $config, LoggerInterface $logger): Daemon
    {
        $spool = Spool::open($config->spoolPath, $config->fsync, $config->spoolReserveBytes);
        $metrics = new Metrics();
        $upstream = new Upstream(new DestinationGuard($config->allowPrivateNetworks, $config->allowedHosts), $config->cafile, $config->timeout, $config->maxPerHost);
        $deliverer = new Deliverer($spool, $upstream, $config->retry, $metrics, $logger, $config->maxInFlight, $config->maxPerHost);
        $sync = new SyncForwarder($upstream, $metrics);
        $reader = $spool->reader();
        $gauges = static function () use ($reader, $deliverer, $sync): array {
            $counts = $reader->counts();

            return [
                'queue_depth' => $counts['pending'],
                'retrying' => $counts['retrying'],
                'dead_letters' => $counts['dead'],
                'oldest_pending_age_seconds' => $counts['oldest_age_seconds'],
                'in_flight' => $deliverer->inFlight() + $sync->inFlight(),
            ];
        };
        $router = new Router($config, $spool, $upstream, $sync, $deliverer, $metrics, $logger, $gauges);
        $listeners = Listeners::open($config->socketPath, $config->tcpAddress, $config->token);

        return new Daemon($config, $listeners, $router, $deliverer, $sync, $logger);
    }
}
