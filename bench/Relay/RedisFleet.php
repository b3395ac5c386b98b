<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use Symfony\Component\Process\Process;
use WarmHttp\Bench\BenchContext;
use WarmHttp\Bench\Row;
use WarmHttp\Client;
use WarmHttp\Rig\Rig;

/**
 * The relay with a Redis spool shared by a fleet (`--spool=redis://`): what a caller is blocked
 * per hand-off beside the SQLite spool (interleaved in one run), and deliveries per second with
 * one relay and with two, each pinned to its own core, with the CPU each relay process and
 * Redis spend per delivery and the Redis commands per delivery (INFO commandstats). Deliveries
 * go to the rig's nginx on loopback (no added RTT): the rows measure the relay's own cost.
 *
 * @internal bench tooling
 */
final class RedisFleet implements RelayMeasurement
{
    private const CALLERS = 32;

    private function __construct(private readonly string $kind) {}

    public static function handOff(): self
    {
        return new self('hand-off');
    }

    public static function deliveries(int $relays): self
    {
        return new self('deliveries-' . $relays);
    }

    public function specs(BenchContext $context): array
    {
        return [match ($this->kind) {
            'hand-off' => new RelaySpec('redis-dispatch', 'dispatch() to a relay with a Redis spool (SQLite side by side)', CallerBlocked::UNIT),
            'deliveries-1' => new RelaySpec('redis-deliveries-1', 'deliveries/s, one relay on a Redis spool (pinned to one core)', 'deliveries/s'),
            default => new RelaySpec('redis-deliveries-2', 'deliveries/s, two relays on one Redis spool (each pinned to its own core)', 'deliveries/s'),
        }];
    }

    public function missing(): ?string
    {
        return RedisBenchServer::missing() ?? Requirements::relay();
    }

    public function measure(BenchContext $context, RelaySizes $sizes): array
    {
        $redis = RedisBenchServer::start();

        return [$this->kind === 'hand-off' ? $this->handOffRow($context, $redis, $sizes->dispatches) : $this->deliveriesRow($context, $redis, $sizes->deliveries, (int) substr($this->kind, -1))];
    }

    /** Blocks of 100 dispatches, Redis and SQLite in turn, so both see the same machine. */
    private function handOffRow(BenchContext $context, RedisBenchServer $redis, int $dispatches): Row
    {
        $url = Rig::shared()->nginx()->url('plain', '/fast?bench=redis-dispatch');
        $fleet = RedisBenchRelay::start($redis->url(), null);
        $sqlite = BenchRelay::start(['--allow-private-networks']);
        $clients = ['redis' => new Client(['relay' => $fleet->address()]), 'sqlite' => new Client(['relay' => $sqlite->address()])];
        $samples = ['redis' => [], 'sqlite' => []];
        foreach ($clients as $client) {
            $client->dispatch($client->createRequest('POST', $url)); // opens the kept socket, untimed
        }
        for ($block = 0; $block < max(1, intdiv($dispatches, 100)); ++$block) {
            foreach ($clients as $name => $client) {
                $body = $client->createStream(str_repeat('x', 1024));
                for ($i = 0; $i < 100; ++$i) {
                    $request = $client->createRequest('POST', $url)->withBody($body);
                    $start = hrtime(true);
                    $client->dispatch($request);
                    $samples[$name][] = (hrtime(true) - $start) / 1e3;
                }
            }
        }
        $fleet->stop();
        $sqlite->stop();
        [$r, $s] = [Latencies::of($samples['redis']), Latencies::of($samples['sqlite'])];
        $extra = ['p50' => round($r->p50, 1), 'p99' => round($r->p99, 1), 'sqliteP50' => round($s->p50, 1), 'sqliteP99' => round($s->p99, 1), 'samples' => $r->n];

        return $this->specs($context)[0]->measured($r->min, $r->p50, $r->max, $r->n, $extra + ['note' => \sprintf('p99 %.1f µs · SQLite spool in the same run: p50 %.1f, p99 %.1f µs', $r->p99, $s->p50, $s->p99)]);
    }

    private function deliveriesRow(BenchContext $context, RedisBenchServer $redis, int $count, int $relayCount): Row
    {
        $rig = Rig::shared();
        $run = bin2hex(random_bytes(4));
        $relays = [];
        for ($i = 0; $i < $relayCount; ++$i) {
            // one relay: the last CPU, as the SQLite throughput row; two: one core each
            $relays[] = RedisBenchRelay::start($redis->url(), $relayCount === 1 ? RedisBenchRelay::cpus() - 1 : $i % RedisBenchRelay::cpus());
        }
        $origin = OriginLog::follow($rig->nginx(), 'fl=' . $run . '&');
        $requests = [];
        for ($i = 0; $i < $count; ++$i) {
            $requests[$i % $relayCount][] = RelayLoad::request($rig->nginx()->url('plain', \sprintf('/fast?fl=%s&id=%d', $run, $i)), '{"n":' . $i . '}');
        }
        $cpuBefore = array_map(static fn(RedisBenchRelay $r): array => $r->cpuSeconds(), $relays);
        [$redisCpu, $commands, $start] = [$redis->cpuSeconds(), $redis->commands(), microtime(true)];
        $accepted = 0;
        foreach ($relays as $i => $relay) {
            $accepted += RelayLoad::send($relay->socketPath(), $requests[$i], self::CALLERS, 60.0)['accepted'];
        }
        $done = $origin->await($accepted, max(30.0, $count / 200)) ?? microtime(true);
        $perDelivery = static fn(float $seconds): float => round($seconds / max(1, $accepted) * 1e6, 1);
        $extra = ['relays' => $relayCount, 'accepted' => $accepted, 'delivered' => $origin->distinct(), 'duplicates' => $origin->requests() - $origin->distinct(),
            'redisCpuUsPerDelivery' => $perDelivery($redis->cpuSeconds() - $redisCpu), 'redisCommandsPerDelivery' => round(($redis->commands() - $commands) / max(1, $accepted), 2)];
        foreach ($relays as $i => $relay) {
            [$front, $worker] = $relay->cpuDelta($cpuBefore[$i]);
            $extra["relay{$i}FrontCpuUsPerDelivery"] = $perDelivery($front * $relayCount);
            $extra["relay{$i}WorkerCpuUsPerDelivery"] = $perDelivery($worker * $relayCount);
            $extra["relay{$i}Cpu"] = $relay->cpu ?? 'no';
            $relay->stop();
        }
        $rate = $origin->distinct() / max(0.001, $done - $start);
        $note = \sprintf('%d delivered of %d · Redis %.1f µs CPU and %.2f commands per delivery · relay 0: front %.1f, worker %.1f µs CPU per delivery', $extra['delivered'], $accepted, $extra['redisCpuUsPerDelivery'], $extra['redisCommandsPerDelivery'], $extra['relay0FrontCpuUsPerDelivery'], $extra['relay0WorkerCpuUsPerDelivery']);

        return $this->specs($context)[0]->measured($rate, $rate, $rate, $count, $extra + ['note' => $note]);
    }
}
