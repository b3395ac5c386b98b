<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Netns;

/**
 * A destination for the guard's tests that records every TCP connection made to it, on
 * 127.0.0.1 and ::1 at one port, and answers none: the kernel completes the handshake into the
 * backlog, and connections() accepts and counts what arrived. A guard that fails open shows as
 * a connection here, never as a request that went further.
 */
final class GuardOrigin
{
    /** @var list<resource> */
    private array $listeners = [];

    private int $connections = 0;

    private function __construct(public readonly int $port) {}

    public function __destruct()
    {
        foreach ($this->listeners as $listener) {
            fclose($listener);
        }
    }

    public static function start(): self
    {
        for ($attempt = 0; $attempt < 5; ++$attempt) {
            $v4 = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
            if ($v4 === false) {
                throw new \RuntimeException("Cannot listen on 127.0.0.1: $errstr");
            }
            $name = (string) stream_socket_get_name($v4, false);
            $origin = new self((int) substr($name, (int) strrpos($name, ':') + 1));
            $origin->listeners[] = $v4;
            $v6 = @stream_socket_server('tcp://[::1]:' . $origin->port, $errno, $errstr);
            if ($v6 !== false) {
                $origin->listeners[] = $v6;

                return $origin;
            }
        }

        throw new \RuntimeException("Cannot listen on [::1] at the port taken on 127.0.0.1: $errstr");
    }

    /** Connections made so far, waiting up to $seconds for a late one (an async delivery). */
    public function connections(float $seconds = 0.0): int
    {
        $deadline = microtime(true) + $seconds;
        do {
            $this->acceptWaiting();
            if ($this->connections > 0) {
                break;
            }
            usleep(20_000);
        } while (microtime(true) < $deadline);

        return $this->connections;
    }

    private function acceptWaiting(): void
    {
        foreach ($this->listeners as $listener) {
            while (($connection = @stream_socket_accept($listener, 0)) !== false) {
                ++$this->connections;
                fclose($connection);
            }
        }
    }
}
