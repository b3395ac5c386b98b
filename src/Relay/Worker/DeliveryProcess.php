<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Worker;

use Psr\Log\LoggerInterface;
use WarmHttp\Internal\CurlPool;
use WarmHttp\Relay\MetricsFile;
use WarmHttp\Relay\Storage\JournalPosition;
use WarmHttp\Relay\Storage\SpooledRequest;
use WarmHttp\Relay\Storage\SpoolStore;
use WarmHttp\Relay\Storage\SpoolUnavailable;

/**
 * The relay's second process: takes acknowledged requests from the journal into the SQLite
 * spool and delivers them, with retries and dead letters. Apart from the front process so a
 * caller waiting for its 202 never waits behind delivery work (TLS, HTTP/2, bookkeeping).
 * It exits when the front process goes away, and holds a lock so that only one worker runs.
 *
 * @internal
 */
final class DeliveryProcess
{
    /**
     * The worker yields to the front: a caller blocked on its 202 should not wait behind
     * delivery work on a busy machine. Measured on 2 cores (bench relay rows, 2,000
     * dispatches): p99 of the hand-off 471 and 743 µs at equal priority, 231 and 238 µs with the
     * worker at nice 10; at nice 19 three runs gave 182, 207 and 221 µs against 602, 425 and 233
     * at nice 10, side by side. Delivery throughput did not drop: the worker still gets every
     * cycle the front leaves.
     */
    private const NICENESS = 19;

    /** The longest the worker sleeps: how late it may notice a new journal record. */
    private const TICK_SECONDS = 0.005;

    /** With --ack=redis and deliveries in flight: how long curl may hold the forwarder up. */
    private const ACK_TICK_SECONDS = 0.001;

    /**
     * After the spool failed (disk full, I/O error), the worker waits before trying again: from
     * this long, doubling to BACKOFF_CAP_SECONDS, one log line per step. It used to try ten
     * times a second and log each time.
     */
    private const BACKOFF_FIRST_SECONDS = 0.1;

    private const BACKOFF_CAP_SECONDS = 5.0;

    /**
     * Journal bytes taken into the spool per transaction. SQLite needs room for them twice (WAL,
     * then the database file) beside the WAL's own 1 MiB (wal_autocheckpoint = 256 pages): with
     * 256 KiB batches, a disk with the documented --spool-reserve of 2 MiB left still takes in
     * what the front acknowledged. After a failure the batch halves, down to one record.
     */
    private const BATCH_BYTES = 262144;

    /** Batches of journal records a stopping worker still takes in (64 × 256 KiB). */
    private const FINAL_BATCHES = 64;

    /** How often the spool may give free pages back to the disk (a PRAGMA query each time). */
    private const RELEASE_EVERY_SECONDS = 1.0;

    /**
     * Journal records are taken in only while the spool has this much room (free disk and free
     * pages inside it): below, the room left is for the WAL and checkpoints of deliveries'
     * deletes, whose pages the next records reuse. The front stops acknowledging at
     * --spool-reserve (2 MiB documented): the worker filled that band itself, its WAL could then
     * neither grow nor be checkpointed, and the spool was stuck for good.
     */
    private const TAKE_IN_FLOOR_BYTES = 1048576 + self::BATCH_BYTES;

    private int $batchBytes = self::BATCH_BYTES;

    private bool $roomToTakeIn = true;

    private float $releasedAt = 0.0;

    /** Rows left the spool since its free pages were last given back. */
    private bool $rowsLeft = false;

    private int $failures = 0;

    private float $retryAt = 0.0;

    private bool $stopping = false;

    private float $drainDeadline = \INF;

    private JournalPosition $position;

    /** @var list<array{float, JournalPosition}> segments before the position, removed once their grace is over */
    private array $toForget = [];

    private float $gaugesAt = 0.0;

    /** @var array<string, int|float> */
    private array $gauges = [];

    /** @param resource $lock held for the worker's life (flock): one worker per spool */
    public function __construct(
        private readonly mixed $lock, // @phpstan-ignore property.onlyWritten (holding it keeps the lock)
        private readonly SpoolStore $spool,
        private readonly JournalReader $journal,
        private readonly Deliverer $deliverer,
        private readonly MetricsFile $metrics,
        private readonly LoggerInterface $logger,
        private readonly float $drainTimeout,
        private readonly int $frontPid,
        private readonly SpoolClock $clock,
        private readonly ?JournalHandover $handover = null,
        private readonly ?AckChannel $acks = null,
    ) {
        $this->position = $spool->journalPosition();
    }

    public function run(): void
    {
        $this->trapSignals();
        // Also with --ack=redis, whose 202s wait for this worker: at nice 0 RelayAckRedisTest's
        // dispatch() p50 was 689-1092 µs over five runs, at nice 19 875-921 µs (noise, not a gain).
        @proc_nice(self::NICENESS); // lowering one's own priority needs no privilege
        $pool = CurlPool::get();
        $this->acks?->report($this->position);
        while (!$this->finished()) {
            try {
                $this->takeIn();
                if (!$this->stopping && !$this->backingOff()) {
                    $this->deliverer->launchDue($this->clock->now());
                }
                if (!$this->backingOff()) {
                    $this->spool->heartbeat();
                }
            } catch (\PDOException|SpoolUnavailable $e) {
                // A full or failing disk: nothing acknowledged is lost (it stays in the journal
                // or the spool); try again later rather than exit and fail to reopen.
                $this->failed($e);
            }
            $this->wait($pool);
            $this->forgetJournal();
            $this->metrics->publish($this->deliverer->inFlight(), gauges: $this->gauges());
            if ($this->drainDeadline > 0.0 && posix_getppid() !== $this->frontPid) {
                // Killed, not drained: leave at once; what is in flight stays spooled and is
                // delivered again by the next worker (at least once).
                $this->logger->warning('The relay front process is gone; the delivery worker stops');
                $this->stop();
                $this->drainDeadline = 0.0;
            }
        }
        // What the front acknowledged last goes into the spool before the worker leaves (a
        // fleet's other relays can deliver it only from there); bounded, as a drain is.
        for ($batches = 0; $batches < self::FINAL_BATCHES && $this->takeIn(); ++$batches);
        $this->giveBack();
        $this->metrics->publish(0, force: true, gauges: $this->gauges());
    }

    public function stop(): void
    {
        if (!$this->stopping) {
            $this->stopping = true;
            $this->drainDeadline = microtime(true) + $this->drainTimeout;
        }
    }

    private function finished(): bool
    {
        return $this->stopping && ($this->deliverer->inFlight() === 0 || microtime(true) >= $this->drainDeadline);
    }

    /**
     * One transaction: new journal records, the outcomes so far, the new journal position. While
     * the spool keeps failing, the outcomes go first and alone: deleting what was delivered is
     * what frees room on a full disk for the journal's records.
     */
    /** @return bool whether journal records were taken in */
    private function takeIn(): bool
    {
        if ($this->backingOff() || !$this->walEmptied()) {
            return false;
        }
        $this->releaseFreePages();
        $this->rereadPosition();
        [$requests, $to] = $this->nextBatch();
        $outcomes = $this->deliverer->outcomes();
        if ($requests === [] && $outcomes->isEmpty() && $to == $this->position) {
            return false;
        }
        $now = $this->clock->now();
        try {
            $stored = $this->spool->commit(array_map(static fn(SpooledRequest $r): SpooledRequest => $r->takenInAt($now), $requests), $outcomes, $to, $now);
        } catch (SpoolUnavailable $e) {
            $this->failed($e, \count($requests));

            return false;
        }
        $this->recovered();
        $this->deliverer->recorded();
        $this->rowsLeft = $this->rowsLeft || !$outcomes->isEmpty();
        if ($to->segment !== $this->position->segment) {
            $this->toForget[] = [microtime(true) + $this->spool->journalGraceSeconds(), $to];
            $this->forgetJournal();
        }
        if ($to != $this->position) {
            $this->handover?->forwarded($to);
            $this->acks?->report($to);
        }
        $this->position = $to;
        if (!$this->stopping) {
            $this->deliverer->offer($stored);
        }
        if ($stored === [] && $requests !== []) {
            $this->deliverer->wake(); // a shared spool took them for the fleet: look there
        }

        return $requests !== [];
    }

    /**
     * After the spool failed, its journal position is read again: a Redis that restarted
     * without its last writes (appendfsync everysec) lost the position with them, and the
     * records after it are taken in again from the journal (at least once).
     */
    private function rereadPosition(): void
    {
        if ($this->failures === 0) {
            return;
        }
        try {
            $this->position = $this->spool->journalPosition();
        } catch (\PDOException|SpoolUnavailable) {
            // still failing: the commit that follows says so and backs off
        }
    }

    /** Journal segments the spool has taken in, removed once the spool's grace is over. */
    private function forgetJournal(): void
    {
        $now = microtime(true);
        while ($this->toForget !== [] && $this->toForget[0][0] <= $now) {
            $this->journal->forget(array_shift($this->toForget)[1]);
        }
    }

    /** @return array<string, int|float> the spool's gauges, asked at most twice a second */
    private function gauges(): array
    {
        $now = microtime(true);
        if ($now - $this->gaugesAt >= 0.5) {
            $this->gaugesAt = $now;
            $this->gauges = $this->spool->gauges($this->deliverer->inFlight(), $this->journal->bytesAfter($this->position));
        }

        return $this->gauges;
    }

    /** Stopping: what waits in memory goes back to the spool for the others. */
    private function giveBack(): void
    {
        try {
            $this->spool->giveBack($this->deliverer->waiting());
        } catch (\PDOException|SpoolUnavailable $e) {
            $this->logger->warning('Could not give waiting requests back; another relay takes them after the claim timeout', ['error' => $e->getMessage()]);
        }
    }

    /**
     * After a failure the WAL is emptied first: a write attempted with the WAL at its high mark
     * would take the room that came back, and fail again.
     */
    private function walEmptied(): bool
    {
        if ($this->failures === 0 || $this->spool->checkpoint()) {
            return true;
        }
        $this->failed(new SpoolUnavailable('The spool disk is full: the write-ahead log cannot be moved into the spool yet.'));

        return false;
    }

    /** @return array{list<SpooledRequest>, JournalPosition} journal records to take in now, and the position after them */
    private function nextBatch(): array
    {
        $outcomesOnly = $this->failures > 0 && !$this->deliverer->outcomes()->isEmpty();
        [$requests, $to] = $outcomesOnly ? [[], $this->position] : $this->journal->read($this->position, $this->batchBytes);

        return $requests !== [] && !$this->roomToTakeIn($to) ? [[], $this->position] : [$requests, $to];
    }

    /**
     * Once the spool has drained (nothing in flight) and rows left it, at most once a second:
     * under load the WAL's own checkpoints keep it at 1 MiB, and new rows reuse free pages.
     */
    private function releaseFreePages(): void
    {
        $now = $this->clock->now();
        if ($this->rowsLeft && $this->deliverer->inFlight() === 0 && $now - $this->releasedAt >= self::RELEASE_EVERY_SECONDS) {
            $this->releasedAt = $now;
            $this->rowsLeft = false;
            $this->spool->releaseFreePages();
        }
    }

    /**
     * Asked before each batch of records (a statvfs() and a PRAGMA, per batch of up to 256 KiB,
     * not per request): checked less often, the worker took in megabytes between two looks.
     */
    private function roomToTakeIn(JournalPosition $to): bool
    {
        $room = $this->spool->room();
        $batch = $to->segment === $this->position->segment ? $to->offset - $this->position->offset : self::BATCH_BYTES;
        $enough = $room === null || $room >= self::TAKE_IN_FLOOR_BYTES + $batch;
        if ($enough !== $this->roomToTakeIn) {
            $this->logger->log($enough ? 'notice' : 'warning', $enough ? 'The spool has room again: taking the journal in' : 'The spool disk is nearly full: journal records wait until deliveries free room', ['room_bytes' => $room]);
        }

        return $this->roomToTakeIn = $enough;
    }

    private function backingOff(): bool
    {
        return $this->failures > 0 && $this->clock->now() < $this->retryAt;
    }

    /** One log line per backoff step; the next take-in moves half as many journal bytes. */
    private function failed(\Throwable $e, int $records = 0): void
    {
        $delay = min(self::BACKOFF_CAP_SECONDS, self::BACKOFF_FIRST_SECONDS * 2 ** min($this->failures, 16));
        ++$this->failures;
        $this->retryAt = $this->clock->now() + $delay;
        $this->batchBytes = max(1, intdiv($this->batchBytes, 2));
        $this->logger->error('The spool failed; nothing acknowledged is lost, trying again later', [
            'error' => $e->getMessage(),
            'records_waiting' => $records,
            'failures' => $this->failures,
            'retry_in_s' => round($delay, 3),
        ]);
    }

    private function recovered(): void
    {
        if ($this->failures > 0) {
            $this->logger->notice('The spool works again', ['failures' => $this->failures]);
        }
        $this->failures = 0;
        $this->batchBytes = self::BATCH_BYTES;
    }

    private function wait(CurlPool $pool): void
    {
        if ($pool->inFlight() > 0 && $this->acks !== null) {
            // With --ack=redis a caller waits for the forwarder: the worker sleeps on its wake
            // pipe, not in curl's select (PHP cannot wait on both), and curl gets its turn after.
            $pool->tick(0.0);
            $this->acks->sleep(self::ACK_TICK_SECONDS);
            $pool->tick(0.0);

            return;
        }
        if ($pool->inFlight() > 0) {
            $pool->tick(self::TICK_SECONDS);

            return;
        }
        $seconds = min(self::TICK_SECONDS, $this->deliverer->idleFor($this->clock->now()));
        if ($this->acks !== null) {
            $this->acks->sleep($seconds);

            return;
        }
        usleep((int) ($seconds * 1e6));
    }

    private function trapSignals(): void
    {
        pcntl_async_signals(true);
        pcntl_signal(\SIGTERM, fn() => $this->stop());
        pcntl_signal(\SIGINT, fn() => $this->stop());
    }
}
