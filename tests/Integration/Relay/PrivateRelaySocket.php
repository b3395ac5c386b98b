<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use WarmHttp\Relay\App\RelayAddress;

/**
 * A listening unix socket in a private directory, standing in for the relay where a test
 * answers (or not) by hand: the app's side of the kept connection is tested against it.
 */
final class PrivateRelaySocket
{
    /** @param resource $server */
    private function __construct(private readonly string $dir, public readonly mixed $server) {}

    public static function listen(): self
    {
        $dir = sys_get_temp_dir() . '/warmhttp-relay-socket-' . getmypid() . '-' . bin2hex(random_bytes(4));
        mkdir($dir, 0700);
        $server = stream_socket_server('unix://' . $dir . '/relay.sock', $errno, $errstr);
        if ($server === false) {
            throw new \RuntimeException("Cannot listen on {$dir}/relay.sock: {$errstr}");
        }

        return new self($dir, $server);
    }

    public function address(): RelayAddress
    {
        return RelayAddress::parse('unix://' . $this->dir . '/relay.sock');
    }

    /** @return resource the next connection to it */
    public function accept()
    {
        $connection = stream_socket_accept($this->server, 1.0);
        if ($connection === false) {
            throw new \RuntimeException('Nothing connected to ' . $this->dir . '/relay.sock within 1 s');
        }

        return $connection;
    }

    public function close(): void
    {
        if (\is_resource($this->server)) {
            fclose($this->server);
        }
        @unlink($this->dir . '/relay.sock');
        @rmdir($this->dir);
    }
}
