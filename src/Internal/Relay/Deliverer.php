<?php

declare(strict_types=1);

namespace WarmHttp\Internal\Relay;

use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\ResponseInterface;
use Psr\Log\LoggerInterface;

/**
 * Moves spooled requests to their destinations: picks due ones within the global and per-host
 * caps, starts them on the pool, and gathers their outcomes for one spool transaction per
 * loop iteration. A delivery is removed from the spool only after its 2xx/3xx: at least once.
 *
 * @internal
 */
final class Deliverer
{
    /** How often the spool is looked at with nothing due: picks up relay:retry from outside. */
    private const POLL_SECONDS = 1.0;

    /** @var array<int, string> id => origin, in flight or settled but not yet recorded */
    private array $busy = [];

    /** @var array<string, int> origin => deliveries in flight */
    private array $perOrigin = [];

    private Outcomes $outcomes;

    private float $nextLook = 0.0;

    public function __construct(
        private readonly Spool $spool,
        private readonly Upstream $upstream,
        private readonly RetryPolicy $policy,
        private readonly Metrics $metrics,
        private readonly LoggerInterface $logger,
        private readonly int $maxInFlight,
        private readonly int $maxPerHost,
    ) {
        $this->outcomes = new Outcomes();
    }

    /** New requests were spooled: look at the spool on the next round. */
    public function wake(): void
    {
        $this->nextLook = 0.0;
    }

    public function inFlight(): int
    {
        return array_sum($this->perOrigin);
    }

    /** Seconds until the spool needs looking at again. */
    public function idleFor(float $now): float
    {
        return max(0.0, $this->nextLook - $now);
    }

    public function launchDue(float $now): void
    {
        $room = $this->maxInFlight - \count($this->busy);
        if ($now < $this->nextLook || $room <= 0) {
            return;
        }
        $due = $this->spool->due($now, $room, array_fill_keys(array_keys($this->busy), true));
        $blocked = false;
        foreach ($due as $request) {
            $origin = $request->origin();
            if (($this->perOrigin[$origin] ?? 0) >= $this->maxPerHost) {
                $blocked = true;
                continue;
            }
            $this->start($request, $origin);
        }
        // A full page or a capped host means more is waiting: look again when a slot frees.
        $this->nextLook = ($blocked || \count($due) >= $room) ? \INF : $this->nextWake($now);
    }

    /** Outcomes gathered since the last successful commit; the caller commits them. */
    public function outcomes(): Outcomes
    {
        return $this->outcomes;
    }

    /** The outcomes were committed: their rows may be picked again (retries) or are gone. */
    public function recorded(): void
    {
        foreach ([...$this->outcomes->delivered, ...array_keys($this->outcomes->retries), ...array_keys($this->outcomes->dead)] as $id) {
            unset($this->busy[$id]);
        }
        $this->outcomes = new Outcomes();
    }

    /**
     * Starts freshly spooled requests at once, without reading them back from the spool.
     *
     * @param list<SpooledRequest> $stored
     */
    public function offer(array $stored): void
    {
        foreach ($stored as $request) {
            $origin = $request->origin();
            if (\count($this->busy) >= $this->maxInFlight || ($this->perOrigin[$origin] ?? 0) >= $this->maxPerHost) {
                $this->wake(); // the rest waits in the spool

                return;
            }
            $this->start($request, $origin);
        }
    }

    private function start(SpooledRequest $spooled, string $origin): void
    {
        $this->busy[$spooled->id] = $origin;
        $this->perOrigin[$origin] = ($this->perOrigin[$origin] ?? 0) + 1;
        $this->metrics->add('delivery_attempts_total');
        try {
            $request = Upstream::request($spooled->method, $spooled->uri, [...$spooled->headers, ['Idempotency-Key', $spooled->idempotencyKey]], $spooled->body);
            $transfer = $this->upstream->start($request, delivery: true);
        } catch (UnresolvableHost $e) {
            $this->settle($spooled, $this->policy->later($spooled, $spooled->attempts + 1, $e->getMessage(), microtime(true)));

            return;
        } catch (RefusedDestination|\InvalidArgumentException $e) {
            $this->settle($spooled, ['dead', 0.0, $e->getMessage()]);

            return;
        }
        $transfer->onSettle(function () use ($spooled, $transfer): void {
            $outcome = $transfer->outcome();
            \assert($outcome instanceof ResponseInterface || $outcome instanceof ClientExceptionInterface);
            $this->settle($spooled, $this->policy->decide($spooled, $spooled->attempts + 1, $outcome, microtime(true)));
        });
    }

    /** @param array{string, float, string} $decision */
    private function settle(SpooledRequest $request, array $decision): void
    {
        [$verdict, $at, $reason] = $decision;
        $origin = $this->busy[$request->id];
        if (--$this->perOrigin[$origin] === 0) {
            unset($this->perOrigin[$origin]);
        }
        $attempts = $request->attempts + 1;
        $context = ['id' => $request->id, 'method' => $request->method, 'uri' => $request->uri, 'attempts' => $attempts];
        match ($verdict) {
            'delivered' => $this->outcomes->delivered[] = $request->id,
            'retry' => $this->outcomes->retries[$request->id] = [$at, $attempts, $reason],
            default => $this->outcomes->dead[$request->id] = [$attempts, $reason],
        };
        if ($verdict === 'retry') {
            $this->logger->info('Delivery failed; will retry', $context + ['error' => $reason, 'retry_in_s' => round($at - microtime(true), 3)]);
        } elseif ($verdict === 'dead') {
            $this->logger->warning('Delivery gave up; moved to the dead letters', $context + ['error' => $reason]);
        }
        $this->metrics->add(match ($verdict) {
            'delivered' => 'delivered_total',
            'retry' => 'retries_scheduled_total',
            default => 'dead_lettered_total',
        });
        $this->nextLook = min($this->nextLook, $verdict === 'retry' ? $at : 0.0);
    }

    private function nextWake(float $now): float
    {
        $next = $this->spool->nextDueAfter($now);

        return $next === null ? $now + self::POLL_SECONDS : min($next, $now + self::POLL_SECONDS);
    }
}
