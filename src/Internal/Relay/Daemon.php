<?php

declare(strict_types=1);

namespace WarmHttp\Internal\Relay;

use Psr\Log\LoggerInterface;
use WarmHttp\Internal\CurlPool;

/**
 * The relay's one loop, one process, one core. PHP cannot select on curl's sockets and stream
 * sockets together, so it alternates: stream_select on the callers' sockets (1 ms while
 * transfers are in flight, longer when idle), the group commit of what arrived and its acks,
 * then one non-blocking round of the curl pool.
 *
 * @internal
 */
final class Daemon
{
    /** While transfers are in flight: at most this long before curl gets its turn. */
    private const BUSY_WAIT_SECONDS = 0.001;

    /**
     * After acknowledging, wait this long for the caller's next request before doing curl
     * work. A caller is blocked until its 202, and the relay's delivery work for one request
     * (TLS, HTTP/2, spool bookkeeping) took ~500 µs here, so a caller dispatching in a loop
     * waited that long each time when delivery ran between two of its requests.
     */
    private const LINGER_SECONDS = 0.0003;

    /** Deliveries wait at most this long behind busy callers. */
    private const MAX_DEFER_SECONDS = 0.02;

    private bool $lingering = false;

    private float $lastDeliveryRound = 0.0;

    /** @var array<int, ClientConnection> */
    private array $connections = [];

    private bool $stopping = false;

    private float $drainDeadline = \INF;

    public function __construct(
        private readonly RelayConfig $config,
        private readonly Listeners $listeners,
        private readonly Router $router,
        private readonly Deliverer $deliverer,
        private readonly SyncForwarder $sync,
        private readonly LoggerInterface $logger,
    ) {}

    public function run(): void
    {
        $this->trapSignals();
        $this->logger->info('Relay started', ['pid' => getmypid(), 'socket' => $this->config->socketPath, 'tcp' => $this->config->tcpAddress, 'spool' => $this->config->spoolPath]);
        $pool = CurlPool::get();
        while (!$this->drained()) {
            $this->pollSockets($this->lingering ? self::LINGER_SECONDS : $this->waitSeconds($pool->inFlight() > 0));
            // Spool and acknowledge what arrived before any curl work: a caller is blocked
            // until its 202, while deliveries can wait a little.
            $arrived = $this->router->hasArrivals();
            $this->router->commit();
            $this->reap();
            $now = microtime(true);
            $this->lingering = $arrived && $this->sync->inFlight() === 0 && $now - $this->lastDeliveryRound < self::MAX_DEFER_SECONDS;
            if ($this->lingering) {
                continue;
            }
            $this->deliveryRound($pool, $now);
        }
        $this->shutdown();
    }

    private function deliveryRound(CurlPool $pool, float $now): void
    {
        $this->lastDeliveryRound = $now;
        if ($pool->inFlight() > 0) {
            $pool->tick(0.0);
        }
        if (!$this->stopping) {
            $this->deliverer->launchDue(microtime(true));
        }
        $this->reap();
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
        $this->logger->info('Draining', ['in_flight' => $this->deliverer->inFlight() + $this->sync->inFlight(), 'drain_timeout_s' => $this->config->drainTimeout]);
    }

    private function drained(): bool
    {
        if (!$this->stopping) {
            return false;
        }

        return ($this->deliverer->inFlight() === 0 && $this->sync->inFlight() === 0 && $this->router->idle())
            || microtime(true) >= $this->drainDeadline;
    }

    private function waitSeconds(bool $transfersInFlight): float
    {
        if (!$this->deliverer->outcomes()->isEmpty()) {
            return 0.0; // record them now, in one commit with whatever arrives meanwhile
        }
        if ($transfersInFlight || $this->router->hasArrivals()) {
            return $transfersInFlight ? self::BUSY_WAIT_SECONDS : 0.0;
        }

        return $this->stopping ? 0.05 : min(1.0, $this->deliverer->idleFor(microtime(true)));
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
            $this->connections[(int) $socket] = new ClientConnection($socket, $this->listeners->needsToken($listener));
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
        $this->deliverer->record();
        foreach ($this->connections as $connection) {
            $connection->flush();
            $connection->close();
        }
        $this->listeners->close();
        $this->logger->info('Relay stopped', ['left_in_flight' => $this->deliverer->inFlight(), 'note' => 'unfinished deliveries stay spooled and resume on the next start']);
    }
}
