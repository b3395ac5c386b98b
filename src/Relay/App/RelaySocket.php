<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

/**
 * The PHP side's connection to the relay, opened with STREAM_CLIENT_PERSISTENT so a PHP-FPM
 * worker keeps it across requests: a hand-off then costs one write and one read (about 15 µs
 * measured on a reused unix socket), no connect.
 *
 * @internal
 */
final class RelaySocket
{
    /** @var resource|null */
    private $stream = null;

    public function __construct(private readonly RelayAddress $address, private readonly float $timeoutSeconds = 2.0) {}

    /**
     * Writes one request and reads its answer. A kept socket the relay closed meanwhile (a
     * restart) shows up here: reconnect once and send again.
     *
     * @return array{int, string} status, X-WarmHttp-Error (or body)
     *
     * @throws RelayUnreachable
     */
    public function exchange(string $request): array
    {
        // stream_socket_client() may hand back a persistent socket from an earlier request, so
        // any broken exchange may be a stale socket: one more try, on a new connection.
        for ($attempt = 1; ; ++$attempt) {
            $this->connect();
            try {
                return $this->roundTrip($request);
            } catch (RelayUnreachable $e) {
                $this->drop();
                if ($attempt > 1) {
                    throw $e;
                }
            }
        }
    }

    private function connect(): void
    {
        // Checked when taken, not before every exchange (a syscall, ~15 µs here): within one
        // PHP request a clean exchange leaves nothing behind, and a relay that went away since
        // makes the write or read fail, which exchange() answers with one new connection.
        if ($this->stream !== null) {
            return;
        }
        $this->drop();
        $stream = @stream_socket_client($this->address->streamAddress(), $errno, $errstr, $this->timeoutSeconds, \STREAM_CLIENT_CONNECT | \STREAM_CLIENT_PERSISTENT);
        if ($stream === false) {
            throw new RelayUnreachable(\sprintf('cannot connect to the relay at %s: %s', $this->address->streamAddress(), $errstr));
        }
        stream_set_timeout($stream, (int) $this->timeoutSeconds, (int) (fmod($this->timeoutSeconds, 1.0) * 1e6));
        $this->stream = $stream;
        // A persistent socket that has carried an exchange (an earlier FPM request) has a
        // position past 0 and was checked when it was new: no stat per hand-off.
        if ($this->address->socketPath !== null && ftell($stream) === 0) {
            $this->verifyOwner($this->address->socketPath);
        }
        // A persistent socket from an earlier FPM request may hold leftovers or be closed;
        // fclose() really closes a persistent socket, so the second connect is a new one.
        if (!self::isClean($stream)) {
            $this->drop();
            $this->connect();
        }
    }

    /** @throws RelayUnreachable before a byte is written to a socket that may not be the relay's */
    private function verifyOwner(string $path): void
    {
        try {
            SocketOwnership::verify($path);
        } catch (RelayUnreachable $e) {
            $this->drop();

            throw $e;
        }
    }

    /** @return array{int, string} */
    private function roundTrip(string $request): array
    {
        $stream = $this->stream;
        \assert($stream !== null);
        $written = @fwrite($stream, $request);
        if ($written !== \strlen($request)) {
            throw new RelayUnreachable('the relay connection broke while sending');
        }
        $buffer = '';
        while (($end = strpos($buffer, "\r\n\r\n")) === false || \strlen($buffer) < $end + 4 + self::contentLength($buffer, $end)) {
            $chunk = @fread($stream, 65536);
            if ($chunk === false || $chunk === '') {
                $timedOut = stream_get_meta_data($stream)['timed_out'];
                throw new RelayUnreachable($timedOut ? \sprintf('the relay did not answer within %ss', $this->timeoutSeconds) : 'the relay closed the connection before answering');
            }
            $buffer .= $chunk;
        }

        return self::parse($buffer, $end);
    }

    private static function contentLength(string $buffer, int $headEnd): int
    {
        return preg_match('/\r\ncontent-length:\s*(\d+)/i', substr($buffer, 0, $headEnd), $m) === 1 ? (int) $m[1] : 0;
    }

    /** @return array{int, string} */
    private static function parse(string $buffer, int $headEnd): array
    {
        if (preg_match('#^HTTP/1\.[01] (\d{3})#', $buffer, $m) !== 1) {
            throw new RelayUnreachable('the relay answered something that is not HTTP');
        }
        $error = preg_match('/\r\nx-warmhttp-error:\s*([^\r]*)/i', substr($buffer, 0, $headEnd), $e) === 1 ? $e[1] : trim(substr($buffer, $headEnd + 4));

        return [(int) $m[1], $error];
    }

    /** @param resource $stream no bytes waiting and not at EOF: nothing unread from earlier */
    private static function isClean($stream): bool
    {
        $read = [$stream];
        $write = $except = null;

        return @stream_select($read, $write, $except, 0) === 0;
    }

    private function drop(): void
    {
        if ($this->stream !== null) {
            @fclose($this->stream);
            $this->stream = null;
        }
    }
}
