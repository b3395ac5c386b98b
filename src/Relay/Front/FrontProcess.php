<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Front;

use Psr\Log\LoggerInterface;
use WarmHttp\Internal\CurlPool;
use WarmHttp\Relay\RelayConfig;

/**
 * The relay's front process: one loop, one core, serving callers. It alternates stream_select
 * on the callers' sockets (and on dups of curl's sockets of the sync transfers in flight,
 * UpstreamSockets) with the journal append of what arrived and its acks, then one
 * non-blocking round of the curl pool for sync-mode forwarding, then moves sync answers'
 * bodies on to their callers. Async delivery runs in the delivery worker process.
 *
 * Signals only raise a flag: the loop itself stops accepting and drains, so no handler ever
 * closes a socket the loop is iterating over (that crashed the front under load).
 *
 * @internal
 */
final class FrontProcess
{
    /**
     * While sync transfers are in flight and not all of their sockets are waited on (a
     * connection still opening, a body going out, a caller behind): at most this long before
     * curl gets its turn. Each turn of a transfer (request out, answer in) may wait this
     * long: at 1 ms, a sync call through the relay took 1.5 ms longer than a warm curl call on
     * the same rig.
     */
    private const BUSY_WAIT_SECONDS = 0.0002;

    /**
     * While every sync transfer's socket is waited on: select wakes when its answer arrives,
     * and this only bounds the wait for curl's own timers (a timeout fires up to this late;
     * Expect: 100-continue and connecting are polled). Each turn costs ~23 k instructions:
     * at 5 ms a 20 ms-RTT sync request cost 413 k, at 50 ms 322 k (callgrind, 200 requests),
     * with the same latency (4 alternated bench pairs: relay share 0.617 vs 0.616 ms).
     */
    private const WATCHED_WAIT_SECONDS = 0.05;

    /** How often the dups of connections curl closed while idle are looked for. */
    private const SWEEP_SECONDS = 1.0;

    /** With nothing to do: how long a select may sleep (signals and the worker's watch need turns). */
    private const IDLE_WAIT_SECONDS = 0.25;

    /** After a failed select: the first pause, doubled on each failure in a row up to a second. */
    private const FAILED_SELECT_PAUSE_SECONDS = 0.01;

    /** What woke select (pollSockets): only callers; curl's sockets or its timers with them; only curl's sockets. */
    private const WOKE_CALLERS_ONLY = 0;

    private const WOKE_CURL = 1;

    private const WOKE_CURL_ONLY = 2;

    private readonly Callers $callers;

    private bool $stopRequested = false;

    private bool $stopping = false;

    private float $drainDeadline = \INF;

    private int $failedSelects = 0;

    private float $nextFailedSelectLog = 0.0;

    private readonly UpstreamSockets $upstream;

    private float $nextSweep = 0.0;

    /** When curl gets a round even if none of its sockets woke select (its timers). */
    private float $curlDue = 0.0;

    public function __construct(
        private readonly RelayConfig $config,
        private readonly ListeningSockets $listeners,
        private readonly Router $router,
        private readonly SyncForwarder $sync,
        private readonly WorkerHandle $worker,
        private readonly LoggerInterface $logger,
    ) {
        $this->callers = new Callers($config->limits, $logger);
        $this->upstream = new UpstreamSockets();
    }

    public function run(): void
    {
        $this->trapSignals();
        $this->worker->start();
        $this->logger->info('Relay started', ['pid' => getmypid(), 'socket' => $this->config->socketPath, 'tcp' => $this->config->tcpAddress, 'spool' => $this->config->spoolPath]);
        $pool = CurlPool::get();
        while (!$this->drained()) {
            if ($this->stopRequested) {
                $this->stop();
            }
            $now = self::now();
            $upstream = $this->upstreamToWatch($pool);
            $woke = $this->pollSockets($this->waitSeconds($pool->inFlight() > 0, $upstream !== null), $now, $upstream ?? []);
            $curlWoke = $woke !== self::WOKE_CALLERS_ONLY || $upstream === null;
            if ($woke === self::WOKE_CURL_ONLY) {
                // Only curl's sockets woke select: an answer arrived. Nothing waits to be
                // acknowledged that was not there on the last turn (it was committed then), so
                // curl runs and the answer goes to its caller first; commits and expiries follow
                // on this same turn (~16 µs of a cold turn before the write, hrtime marks). Its
                // timers are due from now, not from before select waited for the answer (that
                // gave the next request's turn a curl round more, 0.3 per request, callgrind).
                $this->curlTurn($pool, true, self::now());
            }
            // Acknowledge what arrived before any curl work: a caller is blocked until its 202.
            if ($this->router->commit($now) > 0) {
                $this->worker->wake();
            }
            $after = self::now();
            $this->router->expireWaiters($after);
            if ($woke !== self::WOKE_CURL_ONLY) {
                $this->curlTurn($pool, $curlWoke, $after);
            }
            $this->callers->reap();
            if ($now >= $this->nextSweep) {
                $this->nextSweep = $now + self::SWEEP_SECONDS;
                $this->upstream->sweep();
            }
            $this->callers->expire($now);
            if (!$this->stopping) {
                $this->worker->watch();
            }
        }
        $this->shutdown();
    }

    /**
     * Sync answers settle inside curl's round; the reap after the turn closes their connections
     * if they asked for that (one reap a turn: it visits every caller, and an answer that
     * arrived waits for nothing else before its round).
     */
    private function curlTurn(CurlPool $pool, bool $curlWoke, float $now): void
    {
        if ($this->sync->inFlight() === 0) {
            return;
        }
        $transfers = $pool->inFlight();
        if ($curlWoke || $now >= $this->curlDue) {
            // Not when only callers woke select while every transfer's socket was waited on:
            // curl has nothing new (a request forwarded this turn was sent at once,
            // Upstream::forward), and its round cost ~2 k instructions of a sync request
            // (callgrind). Its timers still get a round as often as when select waits for them
            // (WATCHED_WAIT_SECONDS), however busy the callers.
            $this->curlDue = $now + self::WATCHED_WAIT_SECONDS;
            $pool->run();
        }
        $this->sync->pump();
        if ($pool->inFlight() < $transfers) {
            $this->upstream->sweep(); // a finished transfer's connection may be closed: its peer must see it
        }
    }

    /** Asks the loop to stop; safe from a signal handler, it only raises a flag. */
    public function requestStop(): void
    {
        $this->stopRequested = true;
    }

    /** Stops accepting; in-flight work gets until --drain-timeout, the rest stays spooled. */
    private function stop(): void
    {
        if ($this->stopping) {
            return;
        }
        $this->stopping = true;
        $this->drainDeadline = self::now() + $this->config->drainTimeout;
        $this->listeners->close();
        $this->worker->drain();
        $this->logger->info('Draining', ['sync_in_flight' => $this->sync->inFlight(), 'drain_timeout_s' => $this->config->drainTimeout]);
    }

    /** Monotonic seconds: timeouts must not jump with the wall clock. */
    private static function now(): float
    {
        return hrtime(true) / 1e9;
    }

    private function drained(): bool
    {
        if (!$this->stopping) {
            return false;
        }

        return ($this->sync->inFlight() === 0 && $this->router->idle()) || self::now() >= $this->drainDeadline;
    }

    /**
     * The dups of curl's sockets to wait on, [] with no transfer in flight; null when some
     * transfer cannot be waited on that way (curl is then polled).
     *
     * @return list<resource>|null
     */
    private function upstreamToWatch(CurlPool $pool): ?array
    {
        $transfers = $pool->inFlight();
        if ($transfers === 0) {
            return [];
        }
        $handles = $pool->handlesInFlight();
        if (\count($handles) !== $transfers || $this->sync->backedUp()) {
            return null; // transfers waiting for a stream (MultiplexGate), or one curl may have paused
        }

        return $this->upstream->watch($handles);
    }

    private function waitSeconds(bool $transfersInFlight, bool $watched): float
    {
        if ($this->router->hasArrivals() || $this->stopRequested) {
            return 0.0;
        }

        // Callers waiting for Redis: their --ack-timeout must be kept to within a few ms.
        $bound = $this->stopping || $this->router->waitingForRedis() > 0 ? min(0.01, $this->config->ackTimeout) : self::IDLE_WAIT_SECONDS;
        if ($transfersInFlight) {
            return $watched ? min(self::WATCHED_WAIT_SECONDS, $bound) : self::BUSY_WAIT_SECONDS;
        }

        return $bound;
    }

    /**
     * @param list<resource> $upstream dups of curl's sockets: readable, curl has work
     *
     * @return self::WOKE_* WOKE_CALLERS_ONLY when curl has nothing new (no dup was readable)
     */
    private function pollSockets(float $timeout, float $now, array $upstream): int
    {
        [$read, $write] = $this->callers->selectSets();
        array_push($read, ...$upstream);
        if (!$this->stopping) {
            array_push($read, ...$this->listeners->sockets());
        }
        $reports = $this->worker->reportPipe();
        if ($reports !== null) {
            $read[] = $reports;
        }
        if ($read === [] && $write === []) {
            usleep((int) ($timeout * 1e6));

            return self::WOKE_CURL;
        }
        $except = null;
        $seconds = (int) $timeout;
        error_clear_last();
        $ready = @stream_select($read, $write, $except, $seconds, (int) (($timeout - $seconds) * 1e6));
        if ($ready === false) {
            $this->selectFailed($now);

            return self::WOKE_CURL;
        }
        $this->failedSelects = 0;
        if ($ready > 0 && $write === [] && $upstream !== [] && $this->onlyWatched($read)) {
            $this->upstream->readable($read);

            return self::WOKE_CURL_ONLY;
        }
        foreach ($write as $socket) {
            $this->callers->writable($socket, $now);
        }
        $readableUpstream = [];
        foreach ($read as $socket) {
            if ($upstream !== [] && $this->upstream->isWatched($socket)) {
                $readableUpstream[] = $socket; // curl's turn comes after the callers'

                continue;
            }
            if ($socket === $reports) {
                $this->forwarded();

                continue;
            }
            $this->readable($socket, $now);
        }
        $this->upstream->readable($readableUpstream);

        return $ready === 0 || $readableUpstream !== [] ? self::WOKE_CURL : self::WOKE_CALLERS_ONLY;
    }

    /** @param list<resource> $read whether select found only dups of curl's sockets readable */
    private function onlyWatched(array $read): bool
    {
        foreach ($read as $socket) {
            if (!$this->upstream->isWatched($socket)) {
                return false;
            }
        }

        return true;
    }

    /** The worker's forwarder reported a journal position: callers waiting for it get their 202. */
    private function forwarded(): void
    {
        $position = ForwardWaiters::lastPosition($this->worker->readReports());
        if ($position !== null) {
            $this->router->forwarded($position);
        }
    }

    /** @param resource $socket */
    private function readable($socket, float $now): void
    {
        $connection = $this->callers->get($socket);
        if ($connection === null) {
            $this->callers->accept($socket, $this->listeners->needsToken($socket), $now);

            return;
        }
        if (!$connection->read($now)) {
            $connection->discardInput();

            return;
        }
        $this->router->serve($connection);
    }

    /**
     * A failed select must never become a spin: say why, give descriptors back, pause. A signal
     * interrupting the wait is not a failure.
     */
    private function selectFailed(float $now): void
    {
        $error = error_get_last()['message'] ?? 'unknown error';
        if ($this->stopRequested || str_contains($error, 'Interrupted system call')) {
            return;
        }
        ++$this->failedSelects;
        $shed = $this->callers->shedIdle();
        if ($now >= $this->nextFailedSelectLog) {
            $this->nextFailedSelectLog = $now + 10.0;
            $this->logger->error('Waiting on the sockets failed; closed the idle connections and pausing', ['error' => $error, 'connections' => $this->callers->count(), 'idle_closed' => $shed, 'failures_in_a_row' => $this->failedSelects]);
        }
        usleep((int) (min(1.0, self::FAILED_SELECT_PAUSE_SECONDS * 2 ** min(10, $this->failedSelects - 1)) * 1e6));
    }

    private function trapSignals(): void
    {
        if (!\function_exists('pcntl_async_signals')) {
            return;
        }
        pcntl_async_signals(true);
        pcntl_signal(\SIGTERM, fn() => $this->requestStop());
        pcntl_signal(\SIGINT, fn() => $this->requestStop());
    }

    private function shutdown(): void
    {
        $this->worker->stop($this->config->drainTimeout);
        $this->callers->closeAll();
        $this->upstream->closeAll();
        $this->listeners->close();
        $this->logger->info('Relay stopped', ['note' => 'unfinished deliveries stay spooled and resume on the next start']);
    }
}
