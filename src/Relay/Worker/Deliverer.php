<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Worker;

use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\ResponseInterface;
use Psr\Log\LoggerInterface;
use WarmHttp\Relay\Guard\RefusedDestination;
use WarmHttp\Relay\Guard\UnresolvableHost;
use WarmHttp\Relay\Metrics;
use WarmHttp\Relay\Outbound\Upstream;
use WarmHttp\Relay\Storage\SpooledRequest;
use WarmHttp\Relay\Storage\SpoolStore;

/**
 * Moves spooled requests to their destinations: takes due ones into a Backlog (fresh ones
 * straight from the journal, the rest from the spool a page at a time), starts them within
 * the global and per-host caps on the pool, and gathers their outcomes for one spool transaction per
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

    /** Spool rows read per look; a look happens only once fewer than REFILL_BELOW wait in memory. */
    public const PAGE = 1024;

    public const REFILL_BELOW = 256;

    private Outcomes $outcomes;

    private readonly Backlog $backlog;

    private float $nextLook = 0.0;

    /**
     * @param int $page        requests read per look (a shared spool reads fewer, so one relay
     *                         does not hold what the others could deliver)
     * @param int $refillBelow a look happens once fewer than this wait in memory
     */
    public function __construct(
        private readonly SpoolStore $spool,
        private readonly Upstream $upstream,
        private readonly RetryPolicy $policy,
        private readonly Metrics $metrics,
        private readonly LoggerInterface $logger,
        private readonly int $maxInFlight,
        private readonly int $maxPerHost,
        private readonly SpoolClock $clock,
        private readonly int $page = self::PAGE,
        private readonly int $refillBelow = self::REFILL_BELOW,
    ) {
        $this->outcomes = new Outcomes();
        $this->backlog = new Backlog();
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
        $this->startWaiting();
        if ($now < $this->nextLook || $this->backlog->count() >= $this->refillBelow) {
            return;
        }
        $page = $this->page - $this->backlog->count();
        $due = $this->spool->due($now, $page, $this->backlog->ids() + array_fill_keys(array_keys($this->busy), true));
        $kept = 0;
        foreach ($due as $request) {
            if (!$this->backlog->push($request, $request->origin())) {
                break;
            }
            ++$kept;
        }
        // A full page (or one the backlog could not hold) means more is due: look again once
        // the backlog has drained below REFILL_BELOW.
        $this->nextLook = ($kept < \count($due) || \count($due) >= $page) ? 0.0 : $this->nextWake($now);
        $this->startWaiting();
    }

    /** @return list<int> ids taken from the spool that wait in memory, not started */
    public function waiting(): array
    {
        return array_keys($this->backlog->ids());
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
     * Starts freshly spooled requests (or queues them for a slot) without reading them back
     * from the spool.
     *
     * @param list<SpooledRequest> $stored
     */
    public function offer(array $stored): void
    {
        foreach ($stored as $request) {
            if (!$this->backlog->push($request, $request->origin())) {
                $this->wake(); // the rest waits in the spool

                break;
            }
        }
        $this->startWaiting();
    }

    private function startWaiting(): void
    {
        $this->backlog->drain(
            $this->maxInFlight - \count($this->busy),
            fn(string $origin): bool => ($this->perOrigin[$origin] ?? 0) < $this->maxPerHost && $this->spool->mayStart($origin, $this->maxPerHost),
            $this->start(...),
        );
    }

    private function start(SpooledRequest $spooled, string $origin): void
    {
        $this->busy[$spooled->id] = $origin;
        $this->perOrigin[$origin] = ($this->perOrigin[$origin] ?? 0) + 1;
        $this->metrics->add('delivery_attempts_total');
        try {
            $transfer = $this->upstream->deliver($spooled);
        } catch (UnresolvableHost $e) {
            $this->settle($spooled, $this->policy->later($spooled, $spooled->attempts + 1, $e->getMessage(), $this->clock->now()));

            return;
        } catch (RefusedDestination|\InvalidArgumentException $e) {
            $this->settle($spooled, Decision::dead($e->getMessage()));

            return;
        }
        $transfer->onSettle(function () use ($spooled, $transfer): void {
            $outcome = $transfer->outcome();
            \assert($outcome instanceof ResponseInterface || $outcome instanceof ClientExceptionInterface);
            $this->settle($spooled, $this->policy->decide($spooled, $spooled->attempts + 1, $outcome, $this->clock->now()));
        });
    }

    private function settle(SpooledRequest $request, Decision $decision): void
    {
        [$verdict, $at, $reason] = [$decision->verdict, $decision->retryAt, $decision->reason];
        $origin = $this->busy[$request->id];
        if (--$this->perOrigin[$origin] === 0) {
            unset($this->perOrigin[$origin]);
        }
        $this->spool->settled($origin);
        $attempts = $request->attempts + 1;
        $context = ['id' => $request->id, 'method' => $request->method, 'uri' => $request->uri, 'attempts' => $attempts];
        match ($verdict) {
            Verdict::Delivered => $this->outcomes->delivered[] = $request->id,
            Verdict::Retry => $this->outcomes->retries[$request->id] = [$at, $attempts, $reason],
            Verdict::Dead => $this->outcomes->dead[$request->id] = [$attempts, $reason],
        };
        if ($verdict === Verdict::Retry) {
            $this->logger->info('Delivery failed; will retry', $context + ['error' => $reason, 'retry_in_s' => round($at - $this->clock->now(), 3)]);
        } elseif ($verdict === Verdict::Dead) {
            $this->logger->warning('Delivery gave up; moved to the dead letters', $context + ['error' => $reason]);
        }
        $this->metrics->add(match ($verdict) {
            Verdict::Delivered => 'delivered_total',
            Verdict::Retry => 'retries_scheduled_total',
            Verdict::Dead => 'dead_lettered_total',
        });
        if ($verdict === Verdict::Retry) {
            $this->nextLook = min($this->nextLook, $at);
        }
    }

    private function nextWake(float $now): float
    {
        $next = $this->spool->nextDueAfter($now);

        return $next === null ? $now + self::POLL_SECONDS : min($next, $now + self::POLL_SECONDS);
    }
}
