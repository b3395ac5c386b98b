<?php

declare(strict_types=1);

namespace WarmHttp\Rig;

/**
 * Asks the kernel for a free loopback port: bind 127.0.0.1:0, read the port, close. Racy by
 * nature (someone may take it before nginx binds it), so callers retry a start on EADDRINUSE.
 *
 * @internal test/bench tooling
 */
final class FreePort
{
    public static function pick(): int
    {
        for ($attempt = 0; $attempt < 5; ++$attempt) {
            $server = @stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
            if ($server === false) {
                continue;
            }
            $name = (string) stream_socket_get_name($server, false);
            fclose($server);
            $port = (int) substr($name, (int) strrpos($name, ':') + 1);
            if ($port > 0) {
                return $port;
            }
        }

        throw new RigException('Cannot find a free port on 127.0.0.1: ' . ($errstr ?? 'unknown error'));
    }
}
