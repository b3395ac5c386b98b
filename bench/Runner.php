<?php

declare(strict_types=1);

namespace WarmHttp\Bench;

use Symfony\Component\Console\Helper\ProgressBar;
use Symfony\Component\Console\Output\OutputInterface;
use WarmHttp\Bench\Target\Targets;
use WarmHttp\Pool;

/**
 * Runs trials $repeat times, interleaved (every trial once, then again) so slow drift in the
 * machine's load spreads over all rows instead of hitting one; each run on fresh origins.
 *
 * @internal bench tooling
 */
final class Runner
{
    public function __construct(
        private readonly Targets $targets,
        private readonly int $repeat,
        private readonly OutputInterface $progressOutput,
    ) {}

    /**
     * @param list<Trial> $trials
     *
     * @return list<Row>
     */
    public function run(string $group, array $trials): array
    {
        $samples = $failures = [];
        $bar = new ProgressBar($this->progressOutput, $this->repeat * \count($trials));
        $bar->setFormat(' %current%/%max% [%bar%] %elapsed:6s% %message%');
        for ($r = 0; $r < $this->repeat; ++$r) {
            foreach ($trials as $i => $trial) {
                $bar->setMessage($group . '/' . $trial->scenario->name());
                $bar->advance();
                if (isset($failures[$i]) || $trial->scenario->unavailableReason() !== null) {
                    continue;
                }
                try {
                    $samples[$i][] = $this->measure($trial, \sprintf('%s.%s.%d.%s', $group, $trial->scenario->name(), $r, bin2hex(random_bytes(3))));
                } catch (\Throwable $e) {
                    $failures[$i] = $e->getMessage();
                }
            }
        }
        $bar->clear();

        return array_map(fn(int $i): Row => $this->row($group, $trials[$i], $samples[$i] ?? [], $failures[$i] ?? null), array_keys($trials));
    }

    private function measure(Trial $trial, string $tag): Measurement
    {
        $target = $this->targets->open($trial->shape->origins);
        try {
            $urls = $target->urls($trial->shape->requests, $trial->path, $tag);
            $pool = Pool::stats();
            $start = hrtime(true);
            ($trial->scenario->open($this->targets->tls()))(...$urls);
            $ms = (hrtime(true) - $start) / 1e6;
            $after = Pool::stats();
            $handshakes = $target->handshakes($tag, \count($urls));

            return new Measurement(
                $ms,
                $target->connections(),
                $handshakes[0] ?? null,
                $handshakes[1] ?? null,
                $after->connectionsOpened - $pool->connectionsOpened,
                $after->tlsHandshakes - $pool->tlsHandshakes,
            );
        } finally {
            $target->close();
        }
    }

    /**
     * @param list<Measurement> $samples
     */
    private function row(string $group, Trial $trial, array $samples, ?string $failure): Row
    {
        $scenario = $trial->scenario;
        $reason = $scenario->unavailableReason();
        if ($reason !== null) {
            return Row::skipped($group, $scenario, $reason);
        }
        if ($failure !== null || $samples === []) {
            return Row::failed($group, $scenario, $failure ?? 'no run completed');
        }
        $time = Spread::of(array_map(static fn(Measurement $m): float => $m->ms, $samples));
        $isWarmHttp = str_starts_with($scenario->name(), 'warmhttp');
        $first = $samples[0];

        return new Row(
            $group,
            $scenario->name(),
            $scenario->label(),
            Row::OK,
            unit: 'ms',
            min: $time->min,
            median: $time->median,
            max: $time->max,
            requests: $trial->shape->requests,
            connections: self::medianOf($samples, 'connections') ?? ($isWarmHttp ? self::medianOf($samples, 'poolConnections') : null),
            tlsFull: self::medianOf($samples, 'tlsFull'),
            tlsResumed: self::medianOf($samples, 'tlsResumed'),
            limit: $trial->shape->limitMs($trial->network),
            limitFormula: $trial->shape->formula($trial->network),
            extra: ($isWarmHttp ? ['poolConnections' => $first->poolConnections, 'poolTlsHandshakes' => $first->poolHandshakes] : [])
                + ['perRequestMs' => round($time->median / max(1, $trial->shape->requests), 2), 'serverMs' => $trial->network->serverMs],
        );
    }

    /**
     * @param list<Measurement> $samples
     */
    private static function medianOf(array $samples, string $property): ?int
    {
        $values = array_values(array_filter(array_map(static fn(Measurement $m): ?int => match ($property) {
            'connections' => $m->connections,
            'tlsFull' => $m->tlsFull,
            'tlsResumed' => $m->tlsResumed,
            default => $m->poolConnections,
        }, $samples), \is_int(...)));

        return $values === [] ? null : Spread::medianInt($values);
    }
}
