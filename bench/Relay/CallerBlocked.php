<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use WarmHttp\Bench\BenchContext;
use WarmHttp\Bench\Row;

/**
 * Time the caller is blocked to get a 1 KiB POST off its hands, in µs per call, p50 and p99:
 * relay dispatch() (both spool modes), seeds/004's Node forwarder (fsockopen per call) and its
 * exec('curl … &'), a blocking cold POST, and the machine's floor for any hand-off (a bare
 * unix-socket round trip between processes).
 *
 * @internal bench tooling
 */
final class CallerBlocked implements RelayMeasurement
{
    public const UNIT = 'µs/call';

    private function __construct(private readonly string $kind) {}

    /** @param 'full'|'normal' $spoolSync */
    public static function dispatch(string $spoolSync): self
    {
        return new self('dispatch-' . $spoolSync);
    }

    /** seeds/004's Node forwarder, reached as the article does: fsockopen, fwrite, fclose. */
    public static function nodeForwarder(): self
    {
        return new self('node-forwarder');
    }

    public static function execCurl(): self
    {
        return new self('exec-curl');
    }

    /** Not the relay: this machine's floor for any hand-off between two processes. */
    public static function socketFloor(): self
    {
        return new self('socket-floor');
    }

    public static function blockingPost(): self
    {
        return new self('blocking-cold-post');
    }

    public function specs(BenchContext $context): array
    {
        return [match ($this->kind) {
            'dispatch-normal' => new RelaySpec('warmhttp-dispatch', 'dispatch() to the relay, spool-sync=normal (default)', self::UNIT),
            'dispatch-full' => new RelaySpec('warmhttp-dispatch-full', 'dispatch() to the relay, spool-sync=full (fdatasync)', self::UNIT),
            'node-forwarder' => new RelaySpec('node-forwarder', "seeds/004's Node forwarder: fsockopen, fwrite, fclose", self::UNIT),
            'exec-curl' => new RelaySpec('exec-curl', "exec('curl … &') (seeds/004)", self::UNIT),
            'socket-floor' => new RelaySpec('socket-floor', 'floor: unix-socket round trip to another PHP process, no relay', self::UNIT),
            default => new RelaySpec('blocking-cold-post', \sprintf('blocking cold POST, %s ms RTT', $context->config->rttMs), self::UNIT),
        }];
    }

    public function missing(): ?string
    {
        return match ($this->kind) {
            'exec-curl' => Requirements::curlCli(),
            'node-forwarder' => NodeForwarder::missing(),
            'blocking-cold-post' => null,
            'socket-floor' => null,
            default => Requirements::relay(),
        };
    }

    public function measure(BenchContext $context, RelaySizes $sizes): array
    {
        if ($this->kind === 'node-forwarder') {
            return [$this->nodeRow($context, (new NodeBench())->handOffs($sizes->dispatches, $context->config->rttMs))];
        }
        $bench = new DispatchBench();
        $rtt = $context->config->rttMs;
        $latencies = match ($this->kind) {
            'dispatch-full' => $bench->relayDispatch($sizes->dispatches, $rtt, 'full'),
            'dispatch-normal' => $bench->relayDispatch($sizes->dispatches, $rtt, 'normal'),
            'exec-curl' => $bench->execCurl($sizes->execs, $rtt),
            'socket-floor' => (new SocketFloor())->roundTrips($sizes->dispatches, DispatchBench::WIRE_BYTES),
            default => $bench->blockingColdPost($sizes->coldPosts, $rtt),
        };

        return [$this->row($context, $latencies)];
    }

    /** @param array<string, float|int|string> $more */
    private function row(BenchContext $context, Latencies $l, array $more = [], string $moreNote = ''): Row
    {
        $extra = ['p50' => round($l->p50, 1), 'p99' => round($l->p99, 1), 'samples' => $l->n, 'bodyBytes' => 1024];
        if (str_starts_with($this->kind, 'dispatch-')) {
            $extra['killMinus9'] = KillNine::RELAY;
        }
        $note = \sprintf('p99 %s µs (n=%d)', self::us($l->p99), $l->n) . $moreNote;

        return $this->specs($context)[0]->measured($l->min, $l->p50, $l->max, $l->n, $extra + $more + ['note' => $note]);
    }

    /** The caller never learns what reached the destination: the bench counts it there. */
    private function nodeRow(BenchContext $context, NodeHandOffs $run): Row
    {
        $more = ['sent' => $run->sent, 'failedSends' => $run->failedSends, 'delivered' => $run->delivered, 'failedForwards' => $run->failedForwards, 'killMinus9' => KillNine::NODE];
        $note = \sprintf(' · delivered %d of %d', $run->delivered, $run->sent) . ($run->failedSends > 0 ? \sprintf(' (%d dropped at fsockopen)', $run->failedSends) : '');

        return $this->row($context, $run->latencies, $more, $note);
    }

    private static function us(float $us): string
    {
        return $us >= 100 ? \sprintf('%.0f', $us) : \sprintf('%.1f', $us);
    }
}
