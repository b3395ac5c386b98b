<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Front;

/**
 * The relay's listening sockets: a unix socket (mode 0660) and, only if asked, a loopback TCP
 * port whose callers must present the token. A non-loopback address is refused outright. The
 * unix socket's path is guarded (SocketPath): nothing but a dead socket of ours is removed, and
 * no other user can put a socket of theirs where callers look for the relay.
 *
 * @internal
 */
final class ListeningSockets
{
    /**
     * Connections the kernel queues before the front accepts them. PHP's default is 32: 200
     * simultaneous dispatches saw 34 fall back (a unix socket refuses a connect at once when
     * its queue is full). The front accepts everything queued on each wake-up, so a deep queue
     * costs only kernel memory. Linux caps it at net.core.somaxconn (the relay warns if lower).
     */
    public const BACKLOG = 1024;

    /** @var array<int, array{resource, bool}> id => socket, callers must present the token */
    private array $sockets = [];

    /** @var list<resource>|null the sockets alone, made once per change */
    private ?array $list = null;

    private ?SocketPath $unixPath = null;

    private function __construct() {}

    public static function open(?string $socketPath, ?string $tcpAddress, ?string $token): self
    {
        $listeners = new self();
        if ($tcpAddress !== null) {
            self::loopback($tcpAddress);
            if ($token === null) {
                throw new \InvalidArgumentException('--tcp needs a token (--token-file=PATH or $WARMHTTP_RELAY_TOKEN): any local process can reach a TCP port.');
            }
        }
        try {
            if ($socketPath !== null) {
                $listeners->add(self::unix($socketPath), false);
                $listeners->unixPath = SocketPath::claim($socketPath);
            }
            if ($tcpAddress !== null) {
                $listeners->add(self::tcp($tcpAddress), true);
            }
        } catch (\RuntimeException $e) {
            $listeners->close(); // a socket file left by a start that failed would only mislead
            throw $e;
        }
        if ($listeners->sockets === []) {
            throw new \InvalidArgumentException('The relay needs a --socket or a --tcp address to listen on.');
        }

        return $listeners;
    }

    /**
     * The address to bind for a --tcp value: loopback only.
     *
     * @return string tcp://HOST:PORT
     *
     * @throws \InvalidArgumentException for anything but 127.x.x.x:PORT, [::1]:PORT or localhost:PORT
     */
    public static function loopback(string $address): string
    {
        if (preg_match('#^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\]|localhost):(\d{1,5})$#D', $address, $m) !== 1) {
            throw new \InvalidArgumentException(\sprintf('Refusing to listen on "%s": the relay binds loopback only (127.0.0.1:PORT or [::1]:PORT); anything else would open it to the network.', $address));
        }

        return \sprintf('tcp://%s:%s', $m[1] === 'localhost' ? '127.0.0.1' : $m[1], $m[2]);
    }

    /**
     * What to tell the operator when Linux would cap the backlog (net.core.somaxconn).
     *
     * @param int|null $somaxconn null: unknown (not Linux)
     */
    public static function backlogWarning(?int $somaxconn): ?string
    {
        if ($somaxconn === null || $somaxconn >= self::BACKLOG) {
            return null;
        }

        return \sprintf(
            'net.core.somaxconn is %d: the kernel queues at most that many callers waiting for the relay (it asks for %d); past that a dispatch falls back to sending the request itself. Raise it: sysctl -w net.core.somaxconn=%d (and in /etc/sysctl.d/ to keep it).',
            $somaxconn,
            self::BACKLOG,
            self::BACKLOG,
        );
    }

    /**
     * The listening sockets, for every select of the front's loop: a list made when they change.
     *
     * @return list<resource>
     */
    public function sockets(): array
    {
        return $this->list ??= array_column($this->sockets, 0);
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
        $this->list = null;
        $this->unixPath?->remove();
        $this->unixPath = null;
    }

    /** @param resource $socket */
    private function add($socket, bool $needsToken): void
    {
        stream_set_blocking($socket, false);
        $this->sockets[(int) $socket] = [$socket, $needsToken];
        $this->list = null;
    }

    /** @return resource */
    private static function unix(string $path)
    {
        $dir = \dirname($path);
        // 0750: the web server's group must reach the socket inside; the relay's umask is 0077.
        $umask = umask(0o027);
        $created = is_dir($dir) || @mkdir($dir, 0o750, true);
        umask($umask);
        if (!$created) {
            throw new \RuntimeException(\sprintf('Cannot create the socket directory "%s" (--socket=%s).', $dir, $path));
        }
        SocketPath::prepare($path);
        // Created 0660 from the start: no window in which any local user could connect.
        $umask = umask(0o117);
        $server = self::listen('unix://' . $path, $path);
        umask($umask);
        self::reachesUs($server, $path);

        return $server;
    }

    /** @return resource */
    private static function tcp(string $address)
    {
        return self::listen(self::loopback($address), $address);
    }

    /** @return resource */
    private static function listen(string $uri, string $what)
    {
        $context = stream_context_create(['socket' => ['backlog' => self::BACKLOG]]);
        $server = @stream_socket_server($uri, $errno, $errstr, \STREAM_SERVER_BIND | \STREAM_SERVER_LISTEN, $context);
        if ($server === false) {
            throw new \RuntimeException(\sprintf('Cannot listen on %s: %s', $what, $errstr));
        }

        return $server;
    }

    /**
     * One connect through the path, accepted on the socket just bound: proof that callers who
     * connect to the path reach this relay and nothing else.
     *
     * @param resource $server
     */
    private static function reachesUs($server, string $path): void
    {
        $client = @stream_socket_client('unix://' . $path, $errno, $errstr, 1.0);
        $accepted = $client === false ? false : @stream_socket_accept($server, 1.0);
        if ($client !== false) {
            fclose($client);
        }
        if ($accepted === false) {
            throw new \RuntimeException(\sprintf('A connect to %s did not reach the socket this relay just bound (%s): something else answers at that path. Check who else writes in %s.', $path, $errstr !== '' ? $errstr : 'not accepted', \dirname($path)));
        }
        fclose($accepted);
    }
}
