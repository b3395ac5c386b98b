<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Front;

use Psr\Log\LoggerInterface;
use WarmHttp\Relay\Wire\WireResponse;

/**
 * The front's caller connections and the limits on them (FrontLimits): at most so many open,
 * half of them at most from the TCP listener (the next ones are told 503 and closed, so
 * stream_select never sees a descriptor past FD_SETSIZE), closed when idle or when a head takes too long, and read only while their
 * buffered input fits the per-connection and total budgets.
 *
 * @internal
 */
final class Callers
{
    private const SWEEP_SECONDS = 1.0;

    /** An idle connection younger than this is not given away: its app may be about to use it. */
    private const EVICTABLE_IDLE_SECONDS = 1.0;

    /** @var array<int, CallerConnection> by socket id */
    private array $connections = [];

    private float $nextSweep = 0.0;

    /** Open connections from the TCP listener (whose callers must still show the token). */
    private int $tcpConnections = 0;

    private int $turnedAway = 0;

    private float $nextTurnAwayLog = 0.0;

    public function __construct(private readonly FrontLimits $limits, private readonly LoggerInterface $logger) {}

    /** @param resource $socket */
    public function get($socket): ?CallerConnection
    {
        return $this->connections[(int) $socket] ?? null;
    }

    public function count(): int
    {
        return \count($this->connections);
    }

    /** @param resource $listener */
    public function accept($listener, bool $needsToken, float $now): void
    {
        // Accept everything queued: under load one select wakes for many callers.
        while (($socket = @stream_socket_accept($listener, 0)) !== false) {
            if ($this->isFull($needsToken) && !$this->evictIdle($needsToken, $now)) {
                $this->turnAway($socket, $now);
                continue;
            }
            $this->connections[(int) $socket] = new CallerConnection($socket, $needsToken, $now);
            $this->tcpConnections += $needsToken ? 1 : 0;
        }
    }

    /**
     * Any local user can open the TCP port, token or not: its callers get half the connections
     * at most, so that they cannot shut out the unix socket's.
     */
    private function isFull(bool $needsToken): bool
    {
        return \count($this->connections) >= $this->limits->maxConnections
            || ($needsToken && $this->tcpConnections >= intdiv($this->limits->maxConnections, 2));
    }

    /**
     * At the cap, a caller that is waiting gets the place of the one idle the longest (for at
     * least EVICTABLE_IDLE_SECONDS): a flood of idle connections then cannot shut anyone out,
     * and an app whose kept connection was closed reconnects on its next request.
     */
    private function evictIdle(bool $needsToken, float $now): bool
    {
        // With room overall, only the TCP share is full: the place must come from TCP.
        $fromTcpOnly = $needsToken && \count($this->connections) < $this->limits->maxConnections;
        $oldest = null;
        foreach ($this->connections as $connection) {
            if ($connection->isIdle() && (!$fromTcpOnly || $connection->needsToken) && ($oldest === null || $connection->lastActive < $oldest->lastActive)) {
                $oldest = $connection;
            }
        }
        if ($oldest === null || $now - $oldest->lastActive < self::EVICTABLE_IDLE_SECONDS) {
            return false;
        }
        $this->drop((int) $oldest->socket, $oldest);

        return !$this->isFull($needsToken);
    }

    /**
     * The sockets to wait on: to read from, to write to.
     *
     * @return array{list<resource>, list<resource>}
     */
    public function selectSets(): array
    {
        $read = [];
        $write = [];
        $buffered = 0;
        foreach ($this->connections as $connection) {
            $bytes = $connection->bufferedBytes();
            $buffered += $bytes;
            // A busy connection's further input waits in the kernel once it holds enough.
            if (!$connection->busy || $bytes < FrontLimits::READ_AHEAD_BYTES) {
                $read[] = $connection->socket;
            }
            if ($connection->out !== '') {
                $write[] = $connection->socket;
            }
        }

        return [$buffered > $this->limits->inputBudgetBytes ? $this->withinBudget($read) : $read, $write];
    }

    /** @param resource $socket */
    public function writable($socket, float $now): void
    {
        $connection = $this->connections[(int) $socket];
        $before = \strlen($connection->out);
        $connection->flush();
        if (\strlen($connection->out) < $before) {
            $connection->lastActive = $now;
        }
    }

    /** Closes the connections that are finished or broken. */
    public function reap(): void
    {
        foreach ($this->connections as $id => $connection) {
            if ($connection->isDone() || ($connection->out !== '' && !$connection->flush())) {
                $this->drop($id, $connection);
            }
        }
    }

    /** Once a second: answers heads that take too long, closes connections idle too long. */
    public function expire(float $now): void
    {
        if ($now < $this->nextSweep) {
            return;
        }
        $this->nextSweep = $now + self::SWEEP_SECONDS;
        foreach ($this->connections as $id => $connection) {
            if ($connection->busy) {
                continue; // its request is in the relay's hands: spool commit or upstream timeout
            }
            if ($connection->headSince !== null && !$connection->closing && $now - $connection->headSince > $this->limits->headSeconds) {
                $this->timeOut($connection, $now, \sprintf('The request head did not arrive within %d s.', (int) $this->limits->headSeconds));
            } elseif ($now - $connection->lastActive > $this->limits->idleSeconds) {
                $this->expireIdle($id, $connection, $now);
            }
        }
    }

    /** Closes every connection with nothing in flight: stream_select failed, descriptors must go. */
    public function shedIdle(): int
    {
        $shed = 0;
        foreach ($this->connections as $id => $connection) {
            if ($connection->isIdle()) {
                $this->drop($id, $connection);
                ++$shed;
            }
        }

        return $shed;
    }

    public function closeAll(): void
    {
        foreach ($this->connections as $connection) {
            $connection->flush();
            $connection->close();
        }
        $this->connections = [];
        $this->tcpConnections = 0;
    }

    private function drop(int $id, CallerConnection $connection): void
    {
        $connection->close();
        unset($this->connections[$id]);
        $this->tcpConnections -= $connection->needsToken ? 1 : 0;
    }

    /**
     * Over the total budget: read only connections holding little (heads, small requests) and
     * the one holding most, so that it can finish its request and give its share back.
     *
     * @param list<resource> $read
     *
     * @return list<resource>
     */
    private function withinBudget(array $read): array
    {
        $largest = null;
        $kept = [];
        foreach ($read as $socket) {
            $connection = $this->connections[(int) $socket];
            $bytes = $connection->bufferedBytes();
            if ($bytes < FrontLimits::SMALL_INPUT_BYTES || $connection->closing) {
                $kept[] = $socket;
            } elseif ($largest === null || $bytes > $largest->bufferedBytes()) {
                $largest = $connection;
            }
        }
        if ($largest !== null) {
            $kept[] = $largest->socket;
        }

        return $kept;
    }

    private function expireIdle(int $id, CallerConnection $connection, float $now): void
    {
        if ($connection->isIdle() || $connection->closing) {
            $this->drop($id, $connection);

            return;
        }
        $this->timeOut($connection, $now, \sprintf('No byte of the request arrived for %d s.', (int) $this->limits->idleSeconds));
    }

    private function timeOut(CallerConnection $connection, float $now, string $message): void
    {
        $this->logger->notice('Request timed out', ['status' => 408, 'error' => $message]);
        $connection->discardInput();
        $connection->send(WireResponse::relayError(408, $message, true));
        // A caller that does not read its 408 either is closed a head timeout later.
        $connection->lastActive = $now - $this->limits->idleSeconds + $this->limits->headSeconds;
    }

    /** @param resource $socket */
    private function turnAway($socket, float $now): void
    {
        stream_set_blocking($socket, false);
        @fwrite($socket, WireResponse::relayError(503, \sprintf('The relay has %d connections open, its limit: send later, or reuse a connection.', $this->limits->maxConnections), true));
        fclose($socket);
        ++$this->turnedAway;
        if ($now >= $this->nextTurnAwayLog) {
            $this->nextTurnAwayLog = $now + 10.0;
            $this->logger->warning('Connection limit reached: new callers are told 503', ['limit' => $this->limits->maxConnections, 'turned_away_total' => $this->turnedAway]);
        }
    }
}
