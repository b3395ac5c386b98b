<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

// Functions imported by name: a call site's first call in a PHP request skips the namespaced
// lookup (a relay_sync first call under FPM ~3 k instructions less over the App files, callgrind).
use function fclose;
use function ftell;
use function getmypid;
use function stream_select;
use function stream_set_chunk_size;
use function stream_set_read_buffer;
use function stream_socket_client;

/**
 * The process's kept connection to one relay, opened with STREAM_CLIENT_PERSISTENT so a PHP-FPM
 * worker keeps it across requests: no connect, no accept, no socket per FPM request. dispatch()
 * (RelaySocket) and relay_sync (SyncStream) share it: a persistent socket is one per address, and
 * each exchange leaves it clean (a whole answer read, nothing past it), closes it, or, cut off,
 * leaves it unsettled for the next take() to replace.
 *
 * A request that dies mid-exchange (a fatal error while its answer is read, exit() from a signal
 * handler) leaves the rest of the answer in the socket, and the next PHP request of the worker
 * must not read it as its own. The stream itself carries that state across requests: its chunk
 * size, a field of PHP's persistent stream that nothing here reads by (fwrite() does not split
 * by it, and the read buffer is off), is IN_EXCHANGE from take() until settle(). Reading and
 * setting it is no syscall: 2.0 µs a call on a CPU come back cold from a wait, where the
 * pselect() that looked for unread bytes on each PHP request's first take cost 10.1 µs
 * (bench/Relay/cold-cost.php).
 *
 * @internal
 */
final class RelayConnection
{
    /** The stream's chunk size between exchanges: PHP's default, so a new stream starts settled. */
    private const SETTLED = 8192;

    /** Its chunk size from take() until the exchange's answer is read whole (settle()). */
    private const IN_EXCHANGE = 8191;

    /** @var array<string, self> by stream address, for this PHP request (statics end with it) */
    private static array $kept = [];

    /** @var resource|null */
    private $stream = null;

    /**
     * The process that took the stream: a forked child must not write into its parent's socket.
     * 0 until claim(): a stream no process claimed is not handed out again in this PHP request.
     */
    private int $pid = 0;

    /** Whether take() connected anew (the hop's num_connects): no stale socket to retry on. */
    private bool $opened = false;

    private function __construct(public readonly RelayAddress $address) {}

    public static function to(RelayAddress $address): self
    {
        return self::$kept[$address->streamAddress()] ??= new self($address);
    }

    /**
     * The stream, ready for one exchange, which ends with settle() or drop(). A stream whose
     * last exchange did not settle (its request died mid-answer) is replaced by a new
     * connection before anything is written; so is one the relay closed (it restarted, or
     * closed an idle caller): on the first take in a PHP request PHP's own check of a
     * persistent socket finds that, and later takes asked to $recheck look again (a request
     * that must not go twice). A fork between take() and claim() (only a signal handler or tick
     * function can fork there) is not supported: parent and child would both claim the socket.
     *
     * @return resource
     *
     * @throws RelayUnreachable
     */
    public function take(float $connectTimeout, bool $recheck = false)
    {
        if ($this->stream !== null && $this->pid === (int) getmypid()) {
            $this->opened = false;
            if (self::beginExchange($this->stream) && (!$recheck || self::isClean($this->stream))) {
                return $this->stream;
            }
        }
        // Inherited (fclose() in the child closes only its own descriptor), unclaimed, unsettled or unclean.
        $this->drop();
        $this->pid = 0;

        return $this->stream = $this->connect($connectTimeout);
    }

    /**
     * The stream take() gave is this process's, asked once the request is written: the first
     * take of a PHP-FPM request has no stream to check yet, and getpid() there was a syscall
     * before the request's bytes left (with PTI and no PCID each one flushes the TLB: ~4 µs of
     * the first call, FPM worker, hrtime marks). Until then no take() hands the stream out.
     */
    public function claim(): void
    {
        if ($this->pid === 0 && $this->stream !== null) {
            $this->pid = (int) getmypid();
        }
    }

    /** The exchange on the stream take() gave has read its answer whole: the next may begin. */
    public function settle(): void
    {
        if ($this->stream !== null) {
            stream_set_chunk_size($this->stream, self::SETTLED);
        }
    }

    /** Whether the last take() made a new connection. */
    public function opened(): bool
    {
        return $this->opened;
    }

    /** Closes the socket (a persistent one too): the next take() connects anew. */
    public function drop(): void
    {
        if ($this->stream !== null) {
            @fclose($this->stream);
            $this->stream = null;
        }
    }

    /** @return resource */
    private function connect(float $timeout)
    {
        $stream = $this->open($timeout);
        // Marked at once: a request that dies from here on leaves a stream the next one replaces.
        if (!self::beginExchange($stream)) {
            // The rest of an answer a request that died mid-exchange left unread: a new one.
            @fclose($stream);
            $stream = $this->open($timeout);
            self::beginExchange($stream);
        }
        // A persistent socket that carried an exchange (an earlier FPM request) has a position
        // past 0 and was checked when it was new: no stat per FPM request.
        $this->opened = ftell($stream) === 0;
        if ($this->opened && $this->address->socketPath !== null) {
            $this->verifyOwner($stream, $this->address->socketPath);
        }

        return $stream;
    }

    /**
     * @return resource
     *
     * @throws RelayUnreachable a socket path that is gone or untrusted, or nothing listening (with its reason)
     */
    private function open(float $timeout)
    {
        $stream = @stream_socket_client($this->address->streamAddress(), $errno, $errstr, $timeout > 0 ? $timeout : 60.0, \STREAM_CLIENT_CONNECT | \STREAM_CLIENT_PERSISTENT);
        if ($stream === false) {
            if ($this->address->socketPath !== null) {
                SocketOwnership::verify($this->address->socketPath); // names a socket that is gone or untrusted
            }
            $reason = (string) $errstr !== '' ? (string) $errstr : 'error ' . $errno;

            throw new RelayUnreachable(\sprintf('cannot connect to the relay at %s: %s', $this->address->streamAddress(), $reason), $reason);
        }
        // Unbuffered: fread() then reads what the caller asks for (64 KiB) straight from the
        // socket, not 8 KiB chunks through PHP's buffer: a 1 MiB answer took 450 µs of CPU
        // instead of 640 (bench: /tmp/h3/big.php, 30 calls, p50).
        stream_set_read_buffer($stream, 0);

        return $stream;
    }

    /**
     * @param resource $stream
     *
     * @throws RelayUnreachable before a byte is written to a socket that may not be the relay's
     */
    private function verifyOwner($stream, string $path): void
    {
        try {
            SocketOwnership::verify($path);
        } catch (RelayUnreachable $e) {
            @fclose($stream);

            throw $e;
        }
    }

    /**
     * Marks an exchange as begun on $stream.
     *
     * @param resource $stream
     *
     * @return bool whether the one before it settled (a new stream has had none)
     */
    private static function beginExchange($stream): bool
    {
        return stream_set_chunk_size($stream, self::IN_EXCHANGE) === self::SETTLED;
    }

    /** @param resource $stream no bytes waiting and not at EOF: nothing unread from earlier */
    private static function isClean($stream): bool
    {
        $read = [$stream];
        $write = $except = null;

        return @stream_select($read, $write, $except, 0) === 0;
    }
}
