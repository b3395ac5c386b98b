<?php

declare(strict_types=1);

namespace WarmHttp\Relay;

use Psr\Log\LoggerInterface;
use WarmHttp\Relay\Front\FrontProcess;
use WarmHttp\Relay\Front\JournalWriter;
use WarmHttp\Relay\Front\ListeningSockets;
use WarmHttp\Relay\Front\Router;
use WarmHttp\Relay\Front\SyncForwarder;
use WarmHttp\Relay\Front\WorkerHandle;
use WarmHttp\Relay\Guard\DestinationGuard;
use WarmHttp\Relay\Outbound\Upstream;
use WarmHttp\Relay\Storage\Journal;
use WarmHttp\Relay\Storage\Spool;
use WarmHttp\Relay\Storage\SpoolIntegrity;
use WarmHttp\Relay\Storage\SpoolLock;
use WarmHttp\Relay\Storage\SpoolReader;
use WarmHttp\Relay\Storage\SpoolUnavailable;
use WarmHttp\Relay\Worker\Deliverer;
use WarmHttp\Relay\Worker\DeliveryProcess;
use WarmHttp\Relay\Worker\FleetAssembly;
use WarmHttp\Relay\Worker\JournalHandover;
use WarmHttp\Relay\Worker\JournalReader;
use WarmHttp\Relay\Worker\SpoolClock;

/**
 * Wires the relay's two processes from its configuration: the front (sockets, journal, acks,
 * sync forwarding) and the delivery worker (journal → spool → upstream).
 *
 * @internal
 */
final class Assembly
{
    /**
     * The spool lock comes first: a second relay started on the same spool must fail before it
     * changes anything there (a journal segment of its own made the first one lose requests).
     *
     * @param list<string> $argv the front's command line, for starting its worker
     */
    public static function front(RelayConfig $config, LoggerInterface $logger, array $argv): FrontProcess
    {
        $lock = SpoolLock::acquire($config->spoolPath);
        if ($config->redis === null) {
            SpoolIntegrity::ensure($config->spoolPath, $config->fsync, $logger);
            Spool::open($config->spoolPath, $config->fsync); // created before the worker and the gauges read it
        }
        $journal = JournalWriter::open(Journal::dirFor($config->spoolPath), $config->fsync, $config->spoolReserveBytes, $lock);
        $metrics = new Metrics();
        $sync = new SyncForwarder(self::upstream($config, $logger), $metrics);
        $gauges = $config->redis === null ? self::gauges($config, $journal, $sync, $logger) : self::fleetGauges($config, $sync);
        $router = new Router($config, $journal, self::upstream($config, $logger), $sync, $metrics, $logger, $gauges);
        $listeners = ListeningSockets::open($config->socketPath, $config->tcpAddress, $config->token);

        return new FrontProcess($config, $listeners, $router, $sync, WorkerHandle::forFront($argv, $logger, $config->ackRedis), $logger);
    }

    /** @param int $frontPid the front process that started this worker; it stops when that one is gone */
    public static function worker(RelayConfig $config, LoggerInterface $logger, int $frontPid): DeliveryProcess
    {
        if ($frontPid <= 0 || posix_getppid() !== $frontPid) {
            throw new \InvalidArgumentException('--role=delivery is started by the relay itself (with --front-pid), not by hand; its front process is gone.');
        }
        $lock = self::lockWorker($config->spoolPath, $logger, $frontPid);
        if ($config->redis !== null) {
            return FleetAssembly::worker($config, $config->redis, $logger, $frontPid, $lock);
        }
        $spool = Spool::open($config->spoolPath, $config->fsync);
        JournalHandover::intoSqlite($spool, $config->spoolPath, $logger);
        $clock = SpoolClock::start($spool->lastClock(), SpoolClock::wall());
        $metrics = new Metrics();
        $deliverer = new Deliverer($spool, self::upstream($config, $logger), $config->retry, $metrics, $logger, $config->maxInFlight, $config->maxPerHost, $clock);

        return new DeliveryProcess(
            $lock,
            $spool,
            new JournalReader(Journal::dirFor($config->spoolPath), $logger),
            $deliverer,
            new MetricsFile($metrics, MetricsFile::pathFor($config->spoolPath)),
            $logger,
            $config->drainTimeout,
            $frontPid,
            $clock,
        );
    }

    /** The logger tells a security event: an answer from another address than the checked one. */
    public static function upstream(RelayConfig $config, LoggerInterface $logger): Upstream
    {
        return new Upstream(new DestinationGuard($config->allowPrivateNetworks, $config->allowedHosts), $config->cafile, $config->timeout, $config->maxPerHost, $logger);
    }

    /**
     * What GET /metrics reads at each scrape. The journal's backlog is not read: it is the
     * records ever appended (counted once at start, then by the writer) less those the spool
     * has taken in (its journal_taken counter). Reading it at each scrape took 0.2 s at 50,000
     * queued, in the loop that answers callers. A spool that cannot be read gives a gauge saying
     * so, never an exception: the scrape must not take the front down.
     *
     * @return \Closure(): array<string, int|float>
     */
    private static function gauges(RelayConfig $config, JournalWriter $journal, SyncForwarder $sync, LoggerInterface $logger): \Closure
    {
        $reader = SpoolReader::open($config->spoolPath);
        $appendedBefore = $reader->journalTotal();
        $inJournal = static fn(int $taken): int => $appendedBefore + $journal->appended() - $taken;
        $metricsFile = MetricsFile::pathFor($config->spoolPath);

        return static function () use ($reader, $sync, $inJournal, $metricsFile, $logger): array {
            $gauges = ['in_flight' => MetricsFile::inFlight($metricsFile) + $sync->inFlight()];
            try {
                $counts = $reader->counts($inJournal);
            } catch (\Throwable $e) {
                $logger->error('GET /metrics could not read the spool', ['error' => $e->getMessage()]);

                return $gauges + ['spool_readable' => 0];
            }

            return $gauges + [
                'spool_readable' => 1,
                'queue_depth' => $counts['pending'],
                'retrying' => $counts['retrying'],
                'dead_letters' => $counts['dead'],
                'oldest_pending_age_seconds' => $counts['oldest_age_seconds'],
            ];
        };
    }

    /**
     * A fleet's GET /metrics: the worker's last view of Redis (it publishes it twice a second),
     * so a scrape never waits on Redis in the loop that answers callers.
     *
     * @return \Closure(): array<string, int|float>
     */
    private static function fleetGauges(RelayConfig $config, SyncForwarder $sync): \Closure
    {
        $metricsFile = MetricsFile::pathFor($config->spoolPath);

        return static fn(): array => ['in_flight' => MetricsFile::inFlight($metricsFile) + $sync->inFlight()] + MetricsFile::gauges($metricsFile);
    }

    /**
     * One worker per spool: a worker left by a front that was killed exits within a few
     * milliseconds; the next one waits for its lock rather than delivering the same rows.
     */
    /** @return resource */
    private static function lockWorker(string $spoolPath, LoggerInterface $logger, int $front)
    {
        $lock = fopen($spoolPath . '.worker.lock', 'c');
        if ($lock === false) {
            throw new SpoolUnavailable(\sprintf('Cannot open the worker lock beside the spool "%s".', $spoolPath));
        }
        $waiting = false;
        while (!flock($lock, \LOCK_EX | \LOCK_NB)) {
            if (posix_getppid() !== $front) {
                throw new SpoolUnavailable('The relay front process is gone; this delivery worker never started.');
            }
            if (!$waiting) {
                $waiting = true;
                $logger->notice('Waiting for the previous delivery worker to exit');
            }
            usleep(10_000);
        }

        return $lock;
    }
}
