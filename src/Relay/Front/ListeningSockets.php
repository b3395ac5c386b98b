<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Front;

/**
 * The relay's listening sockets: a unix socket (mode 0660) and, only if asked, a loopback TCP
 * port whose callers must present the token. A non-loopback address is refused outright.
 *
 * @internal
 */
final class ListeningSockets
{
    /** @var array<int, array{resource, bool}> id => socket, callers must present the token */
    private array $sockets = [];

    private function __construct(private readonly ?string $socketPath) {}

    public static function open(?string $socketPath, ?string $tcpAddress, ?string $token): self
    {
        $listeners = new self($socketPath);
        if ($socketPath !== null) {
            $listeners->add(self::unix($socketPath), false);
        }
        if ($tcpAddress !== null) {
            if ($token === null) {
                throw new \InvalidArgumentException('--tcp needs --token (or WARMHTTP_RELAY_TOKEN): any local process can reach a TCP port.');
            }
            $listeners->add(self::tcp($tcpAddress), true);
        }
        if ($listeners->sockets === []) {
            throw new \InvalidArgumentException('The relay needs a --socket or a --tcp address to listen on.');
        }

        return $listeners;
    }

    /** @return array<int, resource> */
    public function sockets(): array
    {
        return array_map(static fn(array $s) => $s[0], $this->sockets);
    }

    /** @param resource $listener */
    public function needsToken($listener): bool
    {
        return $this->sockets[(int) $listener][1] ?? true;
    }

    public function close(): void
    {
        foreach ($this->sockets as [$socket]) {
            fclose($socket);
        }
        $this->sockets = [];
        if ($this->socketPath !== null) {
            @unlink($this->socketPath);
        }
    }

    /** @param resource $socket */
    private function add($socket, bool $needsToken): void
    {
        stream_set_blocking($socket, false);
        $this->sockets[(int) $socket] = [$socket, $needsToken];
    }

    /** @return resource */
    private static function unix(string $path)
    {
        $dir = \dirname($path);
        if (!is_dir($dir) && !@mkdir($dir, 0o750, true)) {
            throw new \RuntimeException(\sprintf('Cannot create the socket directory "%s" (--socket=%s).', $dir, $path));
        }
        if (file_exists($path)) {
            $probe = @stream_socket_client('unix://' . $path, $errno, $errstr, 0.5);
            if ($probe !== false) {
                fclose($probe);
                throw new \RuntimeException(\sprintf('Another relay already listens on %s.', $path));
            }
            @unlink($path); // left behind by a relay that was killed
        }
        // Created 0660 from the start: no window in which any local user could connect.
        $umask = umask(0o117);
        $server = @stream_socket_server('unix://' . $path, $errno, $errstr);
        umask($umask);
        if ($server === false) {
            throw new \RuntimeException(\sprintf('Cannot listen on unix socket %s: %s', $path, $errstr));
        }
        chmod($path, 0o660);

        return $server;
    }

    /** @return resource */
    private static function tcp(string $address)
    {
        if (preg_match('#^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\]|localhost):(\d{1,5})$#D', $address, $m) !== 1) {
            throw new \InvalidArgumentException(\sprintf('Refusing to listen on "%s": the relay binds loopback only (127.0.0.1:PORT or [::1]:PORT); anything else would open it to the network.', $address));
        }
        $host = $m[1] === 'localhost' ? '127.0.0.1' : $m[1];
        $server = @stream_socket_server(\sprintf('tcp://%s:%s', $host, $m[2]), $errno, $errstr);
        if ($server === false) {
            throw new \RuntimeException(\sprintf('Cannot listen on %s: %s', $address, $errstr));
        }

        return $server;
    }
}
