<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Worker;

use Psr\Log\LoggerInterface;
use WarmHttp\Relay\Assembly;
use WarmHttp\Relay\Metrics;
use WarmHttp\Relay\MetricsFile;
use WarmHttp\Relay\RelayConfig;
use WarmHttp\Relay\Storage\Journal;
use WarmHttp\Relay\Storage\Redis\RedisAddress;
use WarmHttp\Relay\Storage\Redis\RedisConnection;
use WarmHttp\Relay\Storage\Redis\RedisKeys;
use WarmHttp\Relay\Storage\Redis\RedisSpool;
use WarmHttp\Relay\Storage\SpoolUnavailable;

/**
 * The delivery worker of a relay in a fleet (`--spool=redis://...`): the front is the same as
 * with SQLite (its local journal, its 202s); this worker forwards that journal into the shared
 * Redis spool and delivers what the fleet's consumer group gives it.
 *
 * @internal
 */
final class FleetAssembly
{
    /** A worker reads at most this many requests per look: the rest stay for the other relays. */
    private const PAGE = 256;

    /** Seconds between two attempts to reach Redis at start, and the longest wait between them. */
    private const FIRST_WAIT_SECONDS = 0.1;

    private const LONGEST_WAIT_SECONDS = 2.0;

    /**
     * @param resource $lock the worker's lock, held for its life
     */
    public static function worker(RelayConfig $config, RedisAddress $address, LoggerInterface $logger, int $frontPid, mixed $lock): DeliveryProcess
    {
        $metrics = new Metrics();
        $metricsFile = new MetricsFile($metrics, MetricsFile::pathFor($config->spoolPath));
        $keys = new RedisKeys($address->prefix);
        $connection = new RedisConnection($address, $keys->ensureGroup(...));
        // A lease outlives the longest delivery (--timeout): a relay that dies frees its slots after that.
        $spool = new RedisSpool($connection, $keys, self::relayId($config->spoolPath), $config->claimAfter, $config->timeout + 5.0, $metrics, $config->maxBodyBytes, $logger);
        $now = self::awaitRedis($spool, $address, $logger, $frontPid, $metricsFile);
        JournalHandover::fromSqlite($spool, $config->spoolPath, $logger);
        $clock = SpoolClock::start(null, $now);
        $page = min(self::PAGE, $config->maxInFlight);
        $deliverer = new Deliverer($spool, Assembly::upstream($config, $logger), $config->retry, $metrics, $logger, $config->maxInFlight, $config->maxPerHost, $clock, $page, max(1, intdiv($page, 4)));
        $logger->info('Delivery worker joined the fleet', ['redis' => $address->display(), 'consumer' => $spool->consumer]);

        return new DeliveryProcess($lock, $spool, new JournalReader(Journal::dirFor($config->spoolPath), $logger), $deliverer, $metricsFile, $logger, $config->drainTimeout, $frontPid, $clock, JournalHandover::recorder($config->spoolPath), $config->ackRedis ? AckChannel::inherited() : null);
    }

    /**
     * Redis's time, once it answers: until then the front keeps acknowledging into the
     * journal, and the worker says so once and in /metrics (redis_up 0).
     */
    private static function awaitRedis(RedisSpool $spool, RedisAddress $address, LoggerInterface $logger, int $frontPid, MetricsFile $metricsFile): float
    {
        $wait = self::FIRST_WAIT_SECONDS;
        for ($attempt = 1;; ++$attempt) {
            try {
                $now = $spool->serverTime();
                if ($attempt > 1) {
                    $logger->notice('Redis answers again; forwarding the journal', ['redis' => $address->display()]);
                }

                return $now;
            } catch (SpoolUnavailable $e) {
                if ($attempt === 1) {
                    $logger->error('Redis is unreachable or refuses this relay (see the error: a password, a database); requests are acknowledged into the local journal and forwarded once it answers', ['error' => $e->getMessage()]);
                }
                if (posix_getppid() !== $frontPid) {
                    throw new SpoolUnavailable('The relay front process is gone; this delivery worker never started.');
                }
                $metricsFile->publish(0, force: true, gauges: ['redis_up' => 0]);
                usleep((int) ($wait * 1e6));
                $wait = min(self::LONGEST_WAIT_SECONDS, $wait * 2);
            }
        }
    }

    /** This relay's name in the fleet: made once, kept beside its journal (a restart resumes its position). */
    private static function relayId(string $base): string
    {
        $path = $base . '.relay-id';
        $id = trim((string) @file_get_contents($path));
        if ($id === '') {
            $id = preg_replace('/[^A-Za-z0-9.-]/', '-', (string) gethostname()) . '-' . bin2hex(random_bytes(4));
            if (@file_put_contents($path, $id . "\n") === false) {
                throw new SpoolUnavailable(\sprintf('Cannot write the relay id beside the journal at %s.', $path));
            }
        }

        return $id;
    }

    private function __construct() {}
}
