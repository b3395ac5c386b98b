<?php

declare(strict_types=1);

namespace WarmHttp\Rig\Server;

/**
 * What every rig child process needs: a listening socket on 127.0.0.1:0 whose port it
 * publishes in a file (so the parent never probes, which would count as a connection), and a
 * check that its parent is still alive (so a killed test run leaves no orphans).
 *
 * @internal test/bench tooling
 */
final class ChildRuntime
{
    private readonly int $parentPid;

    public function __construct(private readonly string $dir)
    {
        $this->parentPid = \function_exists('posix_getppid') ? posix_getppid() : 0;
    }

    /**
     * @return resource
     */
    public function listen()
    {
        $server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr, \STREAM_SERVER_BIND | \STREAM_SERVER_LISTEN, stream_context_create(['socket' => ['backlog' => 1024]]));
        if ($server === false) {
            fwrite(\STDERR, "listen failed: {$errstr}\n");
            exit(1);
        }
        stream_set_blocking($server, false);
        $name = (string) stream_socket_get_name($server, false);
        $tmp = $this->dir . '/port.tmp';
        file_put_contents($tmp, substr($name, (int) strrpos($name, ':') + 1));
        rename($tmp, $this->dir . '/port');

        return $server;
    }

    public function orphaned(): bool
    {
        return $this->parentPid !== 0 && posix_getppid() !== $this->parentPid;
    }

    public function statsFile(): string
    {
        return $this->dir . '/stats.json';
    }

    /**
     * @param resource $server
     *
     * @return resource|null
     */
    public static function accept($server)
    {
        $client = @stream_socket_accept($server, 0);
        if ($client === false) {
            return null;
        }
        stream_set_blocking($client, false);
        stream_set_read_buffer($client, 0);
        stream_set_write_buffer($client, 0);
        self::noDelay($client);

        return $client;
    }

    /**
     * Nagle plus delayed ACKs can hold small writes ~40 ms: never wanted in a latency rig.
     *
     * @param resource $stream
     */
    public static function noDelay($stream): void
    {
        $socket = \function_exists('socket_import_stream') ? @socket_import_stream($stream) : false;
        if ($socket instanceof \Socket) {
            @socket_set_option($socket, \SOL_TCP, \TCP_NODELAY, 1);
        }
    }
}
