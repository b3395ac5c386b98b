<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use WarmHttp\Bench\BenchContext;
use WarmHttp\Bench\Spread;

/**
 * Deliveries per second to a 20 ms-RTT upstream, counted at the origin, with what was lost:
 * from one relay (HTTP/2 upstream), or from seeds/004's Node forwarder in the same conditions
 * (10,000 POSTs by 32 callers, one CPU). Always at 20 ms, whatever --rtt: the goal is stated at
 * 20 ms.
 *
 * @internal bench tooling
 */
final class DeliveryThroughput implements RelayMeasurement
{
    public const RTT_MS = 20.0;
    /** Little's law: 5,000/s at 20 ms needs 100 in flight; 256 leaves room (nginx takes 128 streams per connection). */
    public const MAX_PER_HOST = 256;

    public function __construct(private readonly bool $node = false) {}

    /** seeds/004's Node forwarder instead of the relay. */
    public static function node(): self
    {
        return new self(true);
    }

    public function specs(BenchContext $context): array
    {
        return [$this->node
            ? new RelaySpec('node-forwarder-throughput', \sprintf('seeds/004\'s Node forwarder delivering to a %.0f ms-RTT upstream', self::RTT_MS), 'deliveries/s')
            : new RelaySpec('warmhttp-throughput', \sprintf('relay deliveries to a %.0f ms-RTT HTTP/2 upstream', self::RTT_MS), 'deliveries/s')];
    }

    public function missing(): ?string
    {
        return $this->node ? NodeForwarder::missing() : Requirements::relay();
    }

    public function measure(BenchContext $context, RelaySizes $sizes): array
    {
        $runs = [];
        for ($i = 0; $i < max(1, $sizes->throughputRuns); ++$i) {
            $runs[] = $this->node ? (new NodeBench())->deliveries($sizes->deliveries, self::RTT_MS) : (new ThroughputBench())->deliveries($sizes->deliveries, self::RTT_MS, self::MAX_PER_HOST);
        }
        $rates = Spread::of(array_map(static fn(ThroughputResult $r): float => $r->perSecond(), $runs));

        return [$this->specs($context)[0]->measured($rates->min, $rates->median, $rates->max, $sizes->deliveries, $this->extra($runs))];
    }

    /**
     * @param non-empty-list<ThroughputResult> $runs
     *
     * @return array<string, float|int|string>
     */
    private function extra(array $runs): array
    {
        /** @param \Closure(ThroughputResult): int $field */
        $sum = static fn(\Closure $field): int => array_sum(array_map($field, $runs));
        $middle = $runs;
        usort($middle, static fn(ThroughputResult $a, ThroughputResult $b): int => $a->perSecond() <=> $b->perSecond());
        $median = $middle[intdiv(\count($middle), 2)];
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
        ] + ($this->node ? [] : ['maxPerHost' => self::MAX_PER_HOST]);
        $who = $this->node ? 'Node' : 'relay';
        // For the relay a refusal is an answer the caller sees (dispatch() falls back); for
        // Node it is an fsockopen that timed out: the article's caller logs it and drops it.
        $note = \sprintf('lost %d of %d × %d', $extra['lost'], \count($runs), $runs[0]->count)
            . ($extra['refused'] > 0 ? \sprintf(' · %d %s', $extra['refused'], $this->node ? 'dropped at fsockopen' : 'refused') : '');
        $cores = $median->relayCores();
        if ($cores !== null) {
            $extra['relayCores'] = round($cores, 2);
            $extra['relayCoresByProcess'] = $median->relayCoresByProcess();
            // The relay is a front (accepts, journals) and a delivery process: both count.
            $note .= $this->node ? \sprintf(' · Node %.2f cores', $cores) : \sprintf(' · relay %.2f cores (%s)', $cores, $extra['relayCoresByProcess']);
        }
        $pinned = $runs[0]->pinnedCpu;
        // "On one core", literally: the relay's processes (or Node) confined to one CPU with taskset.
        $extra['relayConfinedToCpu'] = $pinned ?? 'no';
        $note .= $pinned === null ? \sprintf(' · %s not confined to one CPU', $who) : \sprintf(' · %s confined to CPU %d', $who, $pinned);
        if ($median->upstreamConnections !== null) {
            $extra['upstreamConnections'] = $median->upstreamConnections;
            $note .= \sprintf(' · %d upstream conns', $median->upstreamConnections);
        }
        $extra['killMinus9'] = $this->node ? KillNine::NODE : KillNine::RELAY;

        return $extra + ['note' => $note];
    }
}
