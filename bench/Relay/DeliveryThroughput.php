<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use WarmHttp\Bench\BenchContext;
use WarmHttp\Bench\Spread;

/**
 * Deliveries per second from one relay to a 20 ms-RTT HTTP/2 upstream, counted at the origin,
 * with what was lost. Always at 20 ms, whatever --rtt: the goal is stated at 20 ms.
 *
 * @internal bench tooling
 */
final class DeliveryThroughput implements RelayMeasurement
{
    public const RTT_MS = 20.0;
    /** Little's law: 5,000/s at 20 ms needs 100 in flight; 256 leaves room (nginx takes 128 streams per connection). */
    public const MAX_PER_HOST = 256;

    public function specs(BenchContext $context): array
    {
        return [new RelaySpec('warmhttp-throughput', \sprintf('relay deliveries to a %.0f ms-RTT HTTP/2 upstream', self::RTT_MS), 'deliveries/s')];
    }

    public function missing(): ?string
    {
        return Requirements::relay();
    }

    public function measure(BenchContext $context, RelaySizes $sizes): array
    {
        $bench = new ThroughputBench();
        $runs = [$bench->deliveries($sizes->deliveries, self::RTT_MS, self::MAX_PER_HOST)];
        for ($i = 1; $i < $sizes->throughputRuns; ++$i) {
            $runs[] = $bench->deliveries($sizes->deliveries, self::RTT_MS, self::MAX_PER_HOST);
        }
        $rates = Spread::of(array_map(static fn(ThroughputResult $r): float => $r->perSecond(), $runs));

        return [$this->specs($context)[0]->measured($rates->min, $rates->median, $rates->max, $sizes->deliveries, self::extra($runs))];
    }

    /**
     * @param non-empty-list<ThroughputResult> $runs
     *
     * @return array<string, float|int|string>
     */
    private static function extra(array $runs): array
    {
        /** @param \Closure(ThroughputResult): int $field */
        $sum = static fn(\Closure $field): int => array_sum(array_map($field, $runs));
        $extra = [
            'runs' => \count($runs),
            'deliveriesPerRun' => $runs[0]->count,
            'accepted' => $sum(static fn(ThroughputResult $r): int => $r->accepted),
            'refused' => $sum(static fn(ThroughputResult $r): int => $r->refused),
            'lost' => $sum(static fn(ThroughputResult $r): int => $r->lost()),
            'duplicates' => $sum(static fn(ThroughputResult $r): int => $r->duplicates),
            'secondsMedian' => round(Spread::of(array_map(static fn(ThroughputResult $r): float => $r->seconds, $runs))->median, 3),
            'acceptSecondsMedian' => round(Spread::of(array_map(static fn(ThroughputResult $r): float => $r->acceptSeconds, $runs))->median, 3),
            'rttMs' => self::RTT_MS,
            'maxPerHost' => self::MAX_PER_HOST,
        ];
        $note = \sprintf('lost %d of %d × %d', $extra['lost'], \count($runs), $runs[0]->count) . ($extra['refused'] > 0 ? \sprintf(' · %d refused', $extra['refused']) : '');
        $middle = $runs;
        usort($middle, static fn(ThroughputResult $a, ThroughputResult $b): int => $a->perSecond() <=> $b->perSecond());
        $cores = $middle[intdiv(\count($middle), 2)]->relayCores();
        if ($cores !== null) {
            // The relay is a front (accepts, journals) and a delivery process: both count.
            $extra['relayCores'] = round($cores, 2);
            $extra['relayCoresByProcess'] = $middle[intdiv(\count($middle), 2)]->relayCoresByProcess();
            $note .= \sprintf(' · relay %.2f cores (%s)', $cores, $extra['relayCoresByProcess']);
        }
        $pinned = $runs[0]->pinnedCpu;
        // "On one core", literally: both relay processes confined to one CPU with taskset.
        $extra['relayConfinedToCpu'] = $pinned ?? 'no';
        $note .= $pinned === null ? ' · relay not confined to one CPU' : \sprintf(' · relay confined to CPU %d', $pinned);

        return $extra + ['note' => $note];
    }
}
