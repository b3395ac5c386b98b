<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use WarmHttp\Bench\BenchContext;
use WarmHttp\Bench\Row;

/**
 * Time the caller is blocked to get a 1 KiB POST off its hands, in µs per call, p50 and p99:
 * relay dispatch() (both spool modes), seeds/004's exec('curl … &'), a blocking cold POST,
 * and the machine's floor for any hand-off (a bare unix-socket round trip between processes).
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
            'exec-curl' => new RelaySpec('exec-curl', "exec('curl … &') (seeds/004)", self::UNIT),
            'socket-floor' => new RelaySpec('socket-floor', 'floor: unix-socket round trip to another PHP process, no relay', self::UNIT),
            default => new RelaySpec('blocking-cold-post', \sprintf('blocking cold POST, %s ms RTT', $context->config->rttMs), self::UNIT),
        }];
    }

    public function missing(): ?string
    {
        return match ($this->kind) {
            'exec-curl' => Requirements::curlCli(),
            'blocking-cold-post' => null,
            'socket-floor' => null,
            default => Requirements::relay(),
        };
    }

    public function measure(BenchContext $context, RelaySizes $sizes): array
    {
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

    private function row(BenchContext $context, Latencies $l): Row
    {
        $extra = ['p50' => round($l->p50, 1), 'p99' => round($l->p99, 1), 'samples' => $l->n, 'bodyBytes' => 1024, 'note' => \sprintf('p99 %s µs (n=%d)', self::us($l->p99), $l->n)];

        return $this->specs($context)[0]->measured($l->min, $l->p50, $l->max, $l->n, $extra);
    }

    private static function us(float $us): string
    {
        return $us >= 100 ? \sprintf('%.0f', $us) : \sprintf('%.1f', $us);
    }
}
