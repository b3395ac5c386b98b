<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Front;

use Psr\Log\LoggerInterface;
use WarmHttp\Internal\CurlPool;
use WarmHttp\Relay\RelayConfig;

/**
 * The relay's front process: one loop, one core, serving callers. It alternates stream_select
 * on the callers' sockets with the journal append of what arrived and its acks, then one
 * non-blocking round of the curl pool for sync-mode forwarding (PHP cannot select on curl's
 * sockets and stream sockets together), then moves sync answers' bodies on to their callers.
 * Async delivery runs in the delivery worker process.
 *
 * @internal
 */
final class FrontProcess
{
    /**
     * While sync transfers are in flight: at most this long before curl gets its turn. Each
     * turn of a transfer (request out, answer in) may wait this long: at 1 ms, a sync call
     * through the relay took 1.5 ms longer than a warm curl call on the same rig.
     */
    private const BUSY_WAIT_SECONDS = 0.0002;

    /** With nothing to do: how long a select may sleep (signals and the worker's watch need turns). */
    private const IDLE_WAIT_SECONDS = 0.25;

    /** @var array<int, CallerConnection> */
    private array $connections = [];

    private bool $stopping = false;

    private float $drainDeadline = \INF;

    public function __construct(
        private readonly RelayConfig $config,
        private readonly ListeningSockets $listeners,
        private readonly Router $router,
        private readonly SyncForwarder $sync,
        private readonly WorkerHandle $worker,
        private readonly LoggerInterface $logger,
    ) {}

    public function run(): void
    {
        $this->trapSignals();
        $this->worker->start();
        $this->logger->info('Relay started', ['pid' => getmypid(), 'socket' => $this->config->socketPath, 'tcp' => $this->config->tcpAddress, 'spool' => $this->config->spoolPath]);
        $pool = CurlPool::get();
        while (!$this->drained()) {
            $this->pollSockets($this->waitSeconds($pool->inFlight() > 0));
            // Acknowledge what arrived before any curl work: a caller is blocked until its 202.
            $this->router->commit();
            $this->reap();
            if ($this->sync->inFlight() > 0) {
                // Sync answers settle inside the tick; the reap after it closes their
                // connections if they asked for that.
                $pool->tick(0.0);
                $this->sync->pump();
                $this->reap();
            }
            if (!$this->stopping) {
                $this->worker->watch();
            }
        }
        $this->shutdown();
    }

    /** Stops accepting; in-flight work gets until --drain-timeout, the rest stays spooled. */
    public function stop(): void
    {
        if ($this->stopping) {
            return;
        }
        $this->stopping = true;
        $this->drainDeadline = microtime(true) + $this->config->drainTimeout;
        $this->listeners->close();
        $this->worker->drain();
        $this->logger->info('Draining', ['sync_in_flight' => $this->sync->inFlight(), 'drain_timeout_s' => $this->config->drainTimeout]);
    }

    private function drained(): bool
    {
        if (!$this->stopping) {
            return false;
        }

        return ($this->sync->inFlight() === 0 && $this->router->idle()) || microtime(true) >= $this->drainDeadline;
    }

    private function waitSeconds(bool $transfersInFlight): float
    {
        if ($this->router->hasArrivals()) {
            return 0.0;
        }

        return $transfersInFlight ? self::BUSY_WAIT_SECONDS : ($this->stopping ? 0.05 : self::IDLE_WAIT_SECONDS);
    }

    private function pollSockets(float $timeout): void
    {
        $read = $this->stopping ? [] : array_values($this->listeners->sockets());
        $write = [];
        foreach ($this->connections as $connection) {
            $read[] = $connection->socket;
            if ($connection->out !== '') {
                $write[] = $connection->socket;
            }
        }
        if ($read === [] && $write === []) {
            usleep((int) ($timeout * 1e6));

            return;
        }
        $except = null;
        $seconds = (int) $timeout;
        if (@stream_select($read, $write, $except, $seconds, (int) (($timeout - $seconds) * 1e6)) > 0) {
            foreach ($write as $socket) {
                $this->connections[(int) $socket]->flush();
            }
            foreach ($read as $socket) {
                $this->readable($socket);
            }
        }
    }

    /** @param resource $socket */
    private function readable($socket): void
    {
        $id = (int) $socket;
        $connection = $this->connections[$id] ?? null;
        if ($connection === null) {
            $this->accept($socket);

            return;
        }
        if (!$connection->read()) {
            $connection->closing = true;
            $connection->in = '';

            return;
        }
        $this->router->serve($connection);
    }

    /** @param resource $listener */
    private function accept($listener): void
    {
        // Accept everything queued: under load one select wakes for many callers.
        while (($socket = @stream_socket_accept($listener, 0)) !== false) {
            $this->connections[(int) $socket] = new CallerConnection($socket, $this->listeners->needsToken($listener));
        }
    }

    private function reap(): void
    {
        foreach ($this->connections as $id => $connection) {
            if ($connection->isDone() || ($connection->out !== '' && !$connection->flush())) {
                $connection->close();
                unset($this->connections[$id]);
            }
        }
    }

    private function trapSignals(): void
    {
        if (!\function_exists('pcntl_async_signals')) {
            return;
        }
        pcntl_async_signals(true);
        pcntl_signal(\SIGTERM, fn() => $this->stop());
        pcntl_signal(\SIGINT, fn() => $this->stop());
    }

    private function shutdown(): void
    {
        $this->worker->stop($this->config->drainTimeout);
        foreach ($this->connections as $connection) {
            $connection->flush();
            $connection->close();
        }
        $this->listeners->close();
        $this->logger->info('Relay stopped', ['note' => 'unfinished deliveries stay spooled and resume on the next start']);
    }
}
