<?php

declare(strict_types=1);

namespace WarmHttp\Rig\Server;

use WarmHttp\Rig\StatsFile;

/**
 * The raw origin's single-threaded stream_select loop (see OriginRoutes for the endpoints).
 * SIGUSR1/SIGUSR2 arm "dead reuse" (FIN/RST) on every open connection without a request.
 *
 * @internal test/bench tooling
 */
final class OriginServer
{
    /** @var array<int, OriginConnection> */
    private array $connections = [];
    /** @var array{connections: int, requests: int, paths: array<string, int>, methods: array<string, int>, deadReuseClosed: int, arms: int} */
    private array $stats = ['connections' => 0, 'requests' => 0, 'paths' => [], 'methods' => [], 'deadReuseClosed' => 0, 'arms' => 0];
    private ?string $pendingArm = null;

    public function __construct(private readonly ChildRuntime $runtime) {}

    public function run(): void
    {
        $server = $this->runtime->listen();
        pcntl_async_signals(true);
        pcntl_signal(\SIGUSR1, fn() => $this->pendingArm = OriginReply::FIN);
        pcntl_signal(\SIGUSR2, fn() => $this->pendingArm = OriginReply::RST);
        $this->saveStats();
        while (!$this->runtime->orphaned()) {
            $this->applyArm();
            $this->tick($server);
        }
    }

    /**
     * @param resource $server
     */
    private function tick($server): void
    {
        $read = [$server];
        $write = [];
        foreach ($this->connections as $connection) {
            $read[] = $connection->stream;
            if ($connection->out !== '') {
                $write[] = $connection->stream;
            }
        }
        $except = null;
        $timeout = $this->selectTimeout();
        if (@stream_select($read, $write, $except, 0, $timeout) === false) {
            return; // EINTR from a signal
        }
        if (\in_array($server, $read, true)) {
            $this->accept($server);
        }
        $this->service($read, $write);
    }

    /**
     * @param resource $server
     */
    private function accept($server): void
    {
        while (null !== ($stream = ChildRuntime::accept($server))) {
            $this->connections[(int) $stream] = new OriginConnection($stream);
            ++$this->stats['connections'];
            $this->saveStats();
        }
    }

    /**
     * @param array<resource> $read
     * @param array<resource> $write
     */
    private function service(array $read, array $write): void
    {
        foreach ($this->connections as $id => $connection) {
            if (\in_array($connection->stream, $read, true)) {
                $connection->read();
            }
            if (!$connection->closed && \in_array($connection->stream, $write, true)) {
                $connection->write();
            }
            if (!$connection->closed) {
                $this->progress($connection);
            }
            if ($connection->closed) {
                unset($this->connections[$id]);
            }
        }
    }

    private function progress(OriginConnection $connection): void
    {
        if ($connection->reply !== null && $connection->out === '') {
            $this->sendOrFinish($connection);
        }
        while (!$connection->closed && !$connection->busy() && null !== ($request = OriginRequest::shift($connection->in))) {
            $this->count($request);
            if ($connection->doom !== null) {
                ++$this->stats['deadReuseClosed'];
                $this->saveStats();
                $connection->close($connection->doom);

                return;
            }
            $this->saveStats();
            $this->begin($connection, OriginRoutes::reply($request));
        }
    }

    private function begin(OriginConnection $connection, OriginReply $reply): void
    {
        $connection->reply = $reply;
        $connection->replyAt = microtime(true) + $reply->delayMs / 1000;
        if ($reply->armAll !== null) {
            $this->arm($reply->armAll);
        }
        $this->sendOrFinish($connection);
    }

    /**
     * Queues the pending reply's bytes when due (replyAt > 0 means "not queued yet"); once they
     * are all written, applies what comes after.
     */
    private function sendOrFinish(OriginConnection $connection): void
    {
        $reply = $connection->reply;
        if ($reply === null) {
            return;
        }
        if ($connection->replyAt > 0.0) {
            if (microtime(true) < $connection->replyAt) {
                return;
            }
            $connection->replyAt = 0.0;
            $connection->out = $reply->bytes;
            if ($connection->out !== '') {
                $connection->write();
            }
        }
        if ($connection->out === '' && !$connection->closed) {
            $this->finish($connection, $reply);
        }
    }

    private function finish(OriginConnection $connection, OriginReply $reply): void
    {
        $connection->reply = null;
        $connection->doom ??= $reply->doom;
        match ($reply->then) {
            OriginReply::FIN, OriginReply::RST => $connection->close($reply->then),
            OriginReply::STALL => $connection->stalled = true,
            default => null,
        };
    }

    private function applyArm(): void
    {
        if ($this->pendingArm !== null) {
            $this->arm($this->pendingArm);
            $this->pendingArm = null;
            $this->saveStats();
        }
    }

    private function arm(string $how): void
    {
        \assert($how === OriginReply::FIN || $how === OriginReply::RST);
        foreach ($this->connections as $connection) {
            $connection->doom = $how;
        }
        ++$this->stats['arms'];
    }

    private function count(OriginRequest $request): void
    {
        ++$this->stats['requests'];
        $this->stats['paths'][$request->path] = ($this->stats['paths'][$request->path] ?? 0) + 1;
        $key = $request->method . ' ' . $request->path;
        $this->stats['methods'][$key] = ($this->stats['methods'][$key] ?? 0) + 1;
    }

    private function selectTimeout(): int
    {
        $timeout = 200_000;
        foreach ($this->connections as $connection) {
            if ($connection->reply !== null && $connection->replyAt > 0.0) {
                $timeout = min($timeout, max(0, (int) (($connection->replyAt - microtime(true)) * 1e6)));
            }
        }

        return $timeout;
    }

    private function saveStats(): void
    {
        StatsFile::write($this->runtime->statsFile(), $this->stats);
    }
}
