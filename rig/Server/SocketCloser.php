<?php

declare(strict_types=1);

namespace WarmHttp\Rig\Server;

/**
 * Closes a TCP stream with a FIN (orderly) or an RST (SO_LINGER 0, what a crashed or
 * overloaded peer looks like).
 *
 * @internal test/bench tooling
 */
final class SocketCloser
{
    /**
     * @param resource $stream
     */
    public static function fin($stream): void
    {
        @stream_socket_shutdown($stream, \STREAM_SHUT_RDWR);
        @fclose($stream);
    }

    /**
     * @param resource $stream
     */
    public static function rst($stream): void
    {
        $socket = \function_exists('socket_import_stream') ? @socket_import_stream($stream) : false;
        if ($socket instanceof \Socket) {
            @socket_set_option($socket, \SOL_SOCKET, \SO_LINGER, ['l_onoff' => 1, 'l_linger' => 0]);
        }
        @fclose($stream);
    }

    /**
     * @param resource $stream
     */
    public static function close($stream, string $how): void
    {
        $how === 'rst' ? self::rst($stream) : self::fin($stream);
    }
}
