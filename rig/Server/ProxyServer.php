<?php

declare(strict_types=1);

namespace WarmHttp\Rig\Server;

use WarmHttp\Rig\StatsFile;

/**
 * The latency proxy's loop: accepts on 127.0.0.1:0, connects each client to the target and
 * delays every chunk by $delaySeconds in each direction, without ever sleeping; with
 * $handshake, a new connection's first bytes also wait out a simulated TCP handshake (1 RTT).
 *
 * @internal test/bench tooling
 */
final class ProxyServer
{
    /** How early the proxy wakes to poll for a chunk's due time, when it may (selectTimeout). */
    private const SPIN_WINDOW_US = 300;

    /** Polling is for light traffic only: at most this many chunks held across all links. */
    private const SPIN_MAX_HELD = 2;

    /** @var array<int, ProxyLink> */
    private array $links = [];
    /** @var array{connections: int, open: int, failedUpstream: int, bytesUp: int, bytesDown: int} */
    private array $stats = ['connections' => 0, 'open' => 0, 'failedUpstream' => 0, 'bytesUp' => 0, 'bytesDown' => 0];
    private float $savedAt = 0.0;
    private bool $dirty = true;

    public function __construct(
        private readonly ChildRuntime $runtime,
        private readonly string $targetHost,
        private readonly int $targetPort,
        private readonly float $delaySeconds,
        private readonly bool $handshake,
    ) {}

    public function run(): void
    {
        $server = $this->runtime->listen();
        $this->saveStats(true);
        while (!$this->runtime->orphaned()) {
            $this->tick($server);
            $this->saveStats(false);
        }
    }

    /**
     * @param resource $server
     */
    private function tick($server): void
    {
        $read = [$server];
        $write = [];
        foreach ($this->links as $link) {
            foreach ($link->pipes() as $pipe) {
                if ($pipe->wantsRead()) {
                    $read[] = $pipe->from;
                }
                if ($pipe->wantsWrite()) {
                    $write[] = $pipe->to;
                }
            }
        }
        $except = null;
        if (@stream_select($read, $write, $except, 0, $this->selectTimeout()) === false) {
            return;
        }
        if (\in_array($server, $read, true)) {
            $this->accept($server);
        }
        $this->service($read, $write, microtime(true));
    }

    /**
     * @param array<resource> $read
     * @param array<resource> $write
     */
    private function service(array $read, array $write, float $now): void
    {
        foreach ($this->links as $id => $link) {
            foreach ($link->pipes() as $pipe) {
                if ($pipe->wantsRead() && \in_array($pipe->from, $read, true)) {
                    $this->countBytes($pipe === $link->up, $pipe->onReadable($now));
                }
                if (\in_array($pipe->to, $write, true)) {
                    $pipe->onWritable();
                }
                $pipe->release($now);
            }
            if ($link->closeIfFinished()) {
                unset($this->links[$id]);
                --$this->stats['open'];
                $this->dirty = true;
            }
        }
    }

    /**
     * @param resource $server
     */
    private function accept($server): void
    {
        while (null !== ($client = ChildRuntime::accept($server))) {
            ++$this->stats['connections'];
            $upstream = $this->connectUpstream();
            if ($upstream === null) {
                ++$this->stats['failedUpstream'];
                SocketCloser::rst($client);
            } else {
                $this->links[(int) $client] = new ProxyLink($client, $upstream, $this->delaySeconds, $this->handshake);
                ++$this->stats['open'];
            }
            $this->saveStats(true);
        }
    }

    /**
     * @return resource|null
     */
    private function connectUpstream()
    {
        $context = stream_context_create(['socket' => ['tcp_nodelay' => true]]);
        $upstream = @stream_socket_client(\sprintf('tcp://%s:%d', $this->targetHost, $this->targetPort), $errno, $errstr, 5.0, \STREAM_CLIENT_CONNECT, $context);
        if ($upstream === false) {
            return null;
        }
        stream_set_blocking($upstream, false);
        stream_set_read_buffer($upstream, 0);
        stream_set_write_buffer($upstream, 0);

        return $upstream;
    }

    private function countBytes(bool $up, int $bytes): void
    {
        if ($bytes > 0) {
            $this->stats[$up ? 'bytesUp' : 'bytesDown'] += $bytes;
            $this->dirty = true;
        }
    }

    /**
     * Sleeps until the next chunk is due. With little held (one exchange at a time, as in a
     * sequential benchmark), it wakes SPIN_WINDOW_US early and polls until the chunk is due:
     * on the 2-core bench VM a select() overslept its timeout by 85-150 µs, which made a
     * 20 ms RTT cost 20.7 ms. Under load there is always something due soon, and polling
     * would take a whole core from what is being measured, so then it just sleeps.
     */
    private function selectTimeout(): int
    {
        $next = null;
        $held = 0;
        foreach ($this->links as $link) {
            foreach ($link->pipes() as $pipe) {
                $due = $pipe->nextDue();
                $next = $due === null ? $next : min($next ?? $due, $due);
                $held += $pipe->held();
            }
        }
        $timeout = $next === null ? 200_000 : (int) ceil(($next - microtime(true)) * 1e6);
        if ($held <= self::SPIN_MAX_HELD && $next !== null) {
            $timeout -= self::SPIN_WINDOW_US;
        }

        return max(0, min(200_000, $timeout, $this->dirty ? 50_000 : 200_000));
    }

    private function saveStats(bool $force): void
    {
        $now = microtime(true);
        if ($force || ($this->dirty && $now - $this->savedAt >= 0.05)) {
            StatsFile::write($this->runtime->statsFile(), $this->stats);
            $this->savedAt = $now;
            $this->dirty = false;
        }
    }
}
