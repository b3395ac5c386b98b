<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

/**
 * One raw connection to a relay for the front's attack tests: bytes out, answers (framed by
 * Content-Length) in, and whether the relay closed it.
 */
final class RelayFrontCaller
{
    private string $buffer = '';

    private bool $eof = false;

    /** @param resource $socket */
    private function __construct(private readonly mixed $socket) {}

    public function __destruct()
    {
        $this->close();
    }

    public static function connect(string $address, float $timeout = 2.0): self
    {
        $socket = stream_socket_client($address, $errno, $errstr, $timeout);
        if ($socket === false) {
            throw new \RuntimeException("Cannot connect to $address: $errstr");
        }

        return new self($socket);
    }

    /** Writes everything, waiting for the relay to read when its buffer is full. */
    public function send(string $bytes, float $timeout = 10.0): void
    {
        stream_set_blocking($this->socket, true);
        stream_set_timeout($this->socket, (int) ceil($timeout));
        while ($bytes !== '') {
            $written = @fwrite($this->socket, $bytes);
            if ($written === false || $written === 0) {
                throw new \RuntimeException('The relay stopped reading or closed the connection.');
            }
            $bytes = substr($bytes, $written);
        }
    }

    /** Writes everything unless the connection broke; false then. */
    public function trySend(string $bytes): bool
    {
        try {
            $this->send($bytes, 2.0);
        } catch (\RuntimeException) {
            $this->eof = true;

            return false;
        }

        return true;
    }

    /** The relay closed it (seen by a read or a failed write). */
    public function isClosed(): bool
    {
        return $this->eof;
    }

    /** Writes what the kernel takes now, without waiting; returns the bytes written. */
    public function offer(string $bytes): int
    {
        stream_set_blocking($this->socket, false);

        return (int) @fwrite($this->socket, $bytes);
    }

    /** The next answer, or '' if the connection closed (or nothing came) before one. */
    public function answer(float $timeout = 5.0): string
    {
        $deadline = microtime(true) + $timeout;
        while (($length = self::answerLength($this->buffer)) === null) {
            if (!$this->fill($deadline)) {
                return '';
            }
        }
        $answer = substr($this->buffer, 0, $length);
        $this->buffer = substr($this->buffer, $length);

        return $answer;
    }

    /** Whether the relay closes the connection (EOF) within $timeout, after what it still sends. */
    public function closedWithin(float $timeout): bool
    {
        $deadline = microtime(true) + $timeout;
        while ($this->fill($deadline)) {
            // what it still sends before closing is kept for answer()
        }

        return $this->eof;
    }

    public function close(): void
    {
        if (\is_resource($this->socket)) {
            fclose($this->socket);
        }
    }

    /**
     * Reads what comes before $deadline; false on EOF or timeout. Blocking reads with a timeout,
     * not stream_select: a test holding a thousand connections has descriptors past FD_SETSIZE.
     */
    private function fill(float $deadline): bool
    {
        $left = $deadline - microtime(true);
        if ($left <= 0 || $this->eof) {
            return false;
        }
        stream_set_blocking($this->socket, true);
        stream_set_timeout($this->socket, (int) $left, (int) (($left - (int) $left) * 1e6));
        $bytes = @fread($this->socket, 65536);
        if ($bytes === false || $bytes === '') {
            // A timed-out read may also give false: only feof() tells the end.
            $this->eof = feof($this->socket) && !stream_get_meta_data($this->socket)['timed_out'];

            return false;
        }
        $this->buffer .= $bytes;

        return true;
    }

    private static function answerLength(string $buffer): ?int
    {
        $end = strpos($buffer, "\r\n\r\n");
        if ($end === false) {
            return null;
        }
        $length = preg_match('/\r\ncontent-length: *(\d+)/i', substr($buffer, 0, $end), $m) === 1 ? (int) $m[1] : 0;

        return \strlen($buffer) >= $end + 4 + $length ? $end + 4 + $length : null;
    }
}
