<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Front;

/**
 * Curl's upstream sockets, for the front's stream_select: the front then sleeps until an
 * answer arrives instead of polling curl every 0.2 ms while a transfer is in flight. PHP 8.2
 * has no CURLINFO_ACTIVESOCKET and curl_multi_select takes no other descriptors, so a
 * transfer's connection is found by its local port (CURLINFO_LOCAL_PORT) and peer among
 * /proc/self/fd, and dup()ed (php://fd/N) into a stream select takes.
 *
 * A dup keeps its socket open after curl closed its own descriptor (the peer would see no
 * FIN, and a half-closed dup would make select spin): only the dups of connections with a
 * transfer in flight are waited on (found by both ends of the connection, which no other live
 * socket shares), and sweep() closes those curl dropped (the front sweeps after every
 * finished transfer and once a second; one readlink per dup). A transfer that cannot be waited on
 * this way (still connecting, a body still going out, no /proc or no ext-sockets, a socket not
 * found) makes watch() answer null: the front polls curl as before. The delivery worker never
 * inherits a dup: WorkerHandle replaces every descriptor above 2 in the child.
 *
 * @internal
 */
final class UpstreamSockets
{
    /**
     * Dups kept at most: one per upstream connection in use. Past it (after a sweep), a new
     * connection's transfers are polled: evicting a dup in use would rescan on every turn.
     */
    private const KEPT = 128;

    /**
     * A dup gets the lowest free descriptor, so with fewer than this many open it stays below
     * FD_SETSIZE (1024), past which stream_select fails for the whole set (and a failed
     * select makes the front shed its idle callers).
     */
    private const DESCRIPTORS_BELOW = 1000;

    /** Sockets scanned and not kept (callers', listeners'), remembered so as not to dup them again. */
    private const OTHERS_KEPT = 4096;

    /** Connections looked for and not found: polled, not looked for again. */
    private const UNFOUND_KEPT = 256;

    /** @var array<int, array{resource, int, string}> by socket inode: the dup, curl's descriptor, its connection key */
    private array $kept = [];

    /** @var array<string, int> connection key (both ends' addresses and ports) => inode */
    private array $byKey = [];

    /** @var array<int, string> inodes of sockets scanned and not kept => their connection key (empty: not a TCP connection) */
    private array $others = [];

    /** @var array<string, true> connection keys a scan did not find */
    private array $unfound = [];

    /** @var array<int, true> inodes whose dup select reported readable on the last turn */
    private array $readableLastTurn = [];

    /** @var array<int, int> dup's resource id => inode, of the dups watch() last returned */
    private array $watched = [];

    private readonly bool $usable;

    public function __construct(?bool $usable = null)
    {
        $this->usable = $usable ?? (\PHP_OS_FAMILY === 'Linux' && \function_exists('socket_import_stream') && is_dir('/proc/self/fd'));
    }

    /**
     * The sockets to wait on for these transfers, or null when one of them cannot be waited
     * on (the front then polls curl). A dup reported readable on two turns in a row is not
     * waited on either: curl did not drain it (a paused transfer, data buffered in TLS), and
     * waiting on it again would spin.
     *
     * @param array<int, \CurlHandle> $handles the transfers now in curl
     *
     * @return list<resource>|null
     */
    public function watch(array $handles): ?array
    {
        $this->watched = [];
        if (!$this->usable || $handles === []) {
            return $this->usable ? [] : null;
        }
        $sockets = [];
        foreach ($handles as $handle) {
            $inode = $this->connectionOf($handle);
            if ($inode === null || isset($this->readableLastTurn[$inode])) {
                $this->watched = [];

                return null;
            }
            $dup = $this->kept[$inode][0];
            $sockets[(int) $dup] = $dup;
            $this->watched[(int) $dup] = $inode;
        }

        return array_values($sockets);
    }

    /** @param resource $stream whether it is one of the dups watch() last returned */
    public function isWatched($stream): bool
    {
        return isset($this->watched[(int) $stream]);
    }

    /**
     * The dups select reported readable on this turn (for watch()'s spin guard).
     *
     * @param list<resource> $readable
     */
    public function readable(array $readable): void
    {
        $this->readableLastTurn = [];
        foreach ($readable as $stream) {
            $inode = $this->watched[(int) $stream] ?? null;
            if ($inode !== null) {
                $this->readableLastTurn[$inode] = true;
            }
        }
    }

    /** Closes the dups of connections curl has closed; cheap, one readlink per dup. */
    public function sweep(): void
    {
        foreach ($this->kept as $inode => [, $fd]) {
            if (!self::names($fd, $inode)) {
                $this->forget($inode);
            }
        }
    }

    /** Dups held now (for tests and the front's accounting). */
    public function count(): int
    {
        return \count($this->kept);
    }

    public function closeAll(): void
    {
        foreach (array_keys($this->kept) as $inode) {
            $this->forget($inode);
        }
    }

    /** The inode of the handle's connection, with a live dup of it; null when it cannot be waited on. */
    private function connectionOf(\CurlHandle $handle): ?int
    {
        $uploadSize = curl_getinfo($handle, \CURLINFO_CONTENT_LENGTH_UPLOAD_T);
        if ($uploadSize > 0 && curl_getinfo($handle, \CURLINFO_SIZE_UPLOAD_T) < $uploadSize) {
            return null; // a body still going out: curl needs writability, which is polled
        }
        $port = curl_getinfo($handle, \CURLINFO_LOCAL_PORT);
        if ($port === 0) {
            return null; // connecting (or not a TCP connection)
        }
        // No two live sockets share both ends, and a kept dup keeps its socket alive: a key
        // that names a kept dup names curl's connection, with no readlink per turn. (The
        // front reads these after curl_multi_exec ran the transfer: no earlier one's values.)
        $key = self::key((string) curl_getinfo($handle, \CURLINFO_LOCAL_IP), $port, (string) curl_getinfo($handle, \CURLINFO_PRIMARY_IP), (int) curl_getinfo($handle, \CURLINFO_PRIMARY_PORT));

        return $this->byKey[$key] ?? ($this->unfound[$key] ?? false ? null : $this->find($key));
    }

    /** Scans /proc/self/fd for the socket with this connection key; dups and keeps it. */
    private function find(string $key): ?int
    {
        $entries = @scandir('/proc/self/fd');
        if ($entries === false || \count($entries) - 2 >= self::DESCRIPTORS_BELOW || !$this->roomToKeep()) {
            $entries = [];
        }
        foreach ($entries as $entry) {
            if ($entry[0] === '.') {
                continue;
            }
            $inode = self::inodeOf((int) $entry);
            // A socket named before is looked at again only if it had this key: callers'
            // sockets are not dup()ed on every scan.
            if ($inode === null || isset($this->kept[$inode]) || (isset($this->others[$inode]) && $this->others[$inode] !== $key)) {
                continue;
            }
            if ($this->probe((int) $entry, $inode, $key)) {
                return $inode;
            }
        }
        if (\count($this->unfound) >= self::UNFOUND_KEPT) {
            $this->unfound = [];
        }
        $this->unfound[$key] = true;

        return null;
    }

    /**
     * Dups descriptor $fd and names its connection: the dup is kept if it is the one sought,
     * closed otherwise (a caller's socket must close when the front closes it).
     */
    private function probe(int $fd, int $inode, string $sought): bool
    {
        $dup = @fopen('php://fd/' . $fd, 'r');
        if ($dup === false) {
            return false;
        }
        $socket = @socket_import_stream($dup);
        $key = $socket instanceof \Socket ? self::keyOf($socket) : null;
        if ($key !== $sought) {
            fclose($dup);
            if (\count($this->others) >= self::OTHERS_KEPT) {
                $this->others = [];
            }
            $this->others[$inode] = $key ?? ''; // '': not a TCP connection (isset() would miss a null)

            return false;
        }
        unset($this->others[$inode]);
        $this->kept[$inode] = [$dup, $fd, $key];
        $this->byKey[$key] = $inode;

        return true;
    }

    private function roomToKeep(): bool
    {
        if (\count($this->kept) >= self::KEPT) {
            $this->sweep();
        }

        return \count($this->kept) < self::KEPT;
    }

    private static function keyOf(\Socket $socket): ?string
    {
        if (!@socket_getsockname($socket, $localAddress, $localPort) || !@socket_getpeername($socket, $peer, $peerPort)) {
            return null; // a listener, a unix socket, or not connected
        }
        if (!\is_string($localAddress) || !\is_int($localPort) || !\is_string($peer) || !\is_int($peerPort) || $localPort === 0) {
            return null;
        }

        return self::key($localAddress, $localPort, $peer, $peerPort);
    }

    /** A connection's two ends, one spelling per address (curl and getpeername may write one IPv6 address differently). */
    private static function key(string $localIp, int $localPort, string $peerIp, int $peerPort): string
    {
        $local = @inet_pton($localIp);
        $peer = @inet_pton($peerIp);

        return ($local === false ? $localIp : $local) . ' ' . $localPort . ' ' . ($peer === false ? $peerIp : $peer) . ' ' . $peerPort;
    }

    private static function inodeOf(int $fd): ?int
    {
        $target = @readlink('/proc/self/fd/' . $fd);

        return $target !== false && str_starts_with($target, 'socket:[') ? (int) substr($target, 8, -1) : null;
    }

    /** Whether descriptor $fd is still the socket $inode (curl has not closed it). */
    private static function names(int $fd, int $inode): bool
    {
        return @readlink('/proc/self/fd/' . $fd) === 'socket:[' . $inode . ']';
    }

    private function forget(int $inode): void
    {
        [$dup, , $key] = $this->kept[$inode];
        fclose($dup);
        unset($this->kept[$inode], $this->byKey[$key], $this->readableLastTurn[$inode]);
    }
}
