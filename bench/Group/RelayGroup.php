<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Group;

use WarmHttp\Bench\BenchContext;
use WarmHttp\Bench\Group;
use WarmHttp\Bench\Relay;
use WarmHttp\Bench\Relay\RelayMeasurement;
use WarmHttp\Bench\Relay\RelaySizes;
use WarmHttp\Bench\Relay\RelaySpec;
use WarmHttp\Bench\Row;

/**
 * The relay's rows (`relay/*`): what a caller is blocked per hand-off, how fast one relay
 * delivers, the first call of a PHP-FPM request through relay_sync against a cold one, and
 * the seeds/004 experiment under wrk; beside the hand-off, throughput and wrk rows, the same
 * measured for seeds/004's own Node.js forwarder. Each measurement starts its own relay (or
 * Node) process; a part missing on this machine (php-fpm, wrk, curl, node and bench/node's
 * packages) skips its rows with the reason.
 *
 * @internal bench tooling
 */
final class RelayGroup implements Group
{
    public function name(): string
    {
        return RelaySpec::GROUP;
    }

    public function title(BenchContext $context): string
    {
        return \sprintf('The relay beside seeds/004\'s Node forwarder: caller blocked per hand-off, deliveries/s, PHP-FPM first call at %s ms RTT, seeds/004 under wrk', $context->config->rttMs);
    }

    public function run(BenchContext $context): array
    {
        $rows = [];
        $sizes = RelaySizes::from($context->config);
        foreach (self::measurements() as $measurement) {
            $specs = array_values(array_filter($measurement->specs($context), fn(RelaySpec $s): bool => $context->config->selected($this->name() . '/' . $s->name)));
            if ($specs !== []) {
                $context->progress->writeln(' relay/' . implode(', relay/', array_map(static fn(RelaySpec $s): string => $s->name, $specs)));
                array_push($rows, ...self::rows($context, $measurement, $sizes, $specs));
            }
        }

        return $rows;
    }

    /** @return list<RelayMeasurement> in run order: the latency rows first, before any load */
    private static function measurements(): array
    {
        return [
            Relay\CallerBlocked::dispatch('normal'),
            Relay\CallerBlocked::dispatch('full'),
            Relay\CallerBlocked::nodeForwarder(),
            Relay\CallerBlocked::socketFloor(),
            Relay\CallerBlocked::execCurl(),
            Relay\CallerBlocked::blockingPost(),
            Relay\RedisFleet::handOff(),
            new Relay\DeliveryThroughput(),
            Relay\DeliveryThroughput::node(),
            Relay\RedisFleet::deliveries(1),
            Relay\RedisFleet::deliveries(2),
            new Relay\FpmFirstCall(),
            new Relay\Seeds004(),
            Relay\Seeds004::node(),
        ];
    }

    /**
     * @param non-empty-list<RelaySpec> $specs the selected ones
     *
     * @return list<Row>
     */
    private static function rows(BenchContext $context, RelayMeasurement $measurement, RelaySizes $sizes, array $specs): array
    {
        $missing = $context->targets->onRig() ? $measurement->missing() : 'the relay rows run on the rig only, not with --url';
        if ($missing !== null) {
            return array_map(static fn(RelaySpec $s): Row => $s->skipped($missing), $specs);
        }
        try {
            $measured = [];
            foreach ($measurement->measure($context, $sizes) as $row) {
                $measured[$row->name] = $row;
            }
        } catch (\Throwable $e) {
            return array_map(static fn(RelaySpec $s): Row => $s->failed($e->getMessage()), $specs);
        }

        return array_map(static fn(RelaySpec $s): Row => $measured[$s->name] ?? $s->failed('the measurement gave no row for it'), $specs);
    }
}
