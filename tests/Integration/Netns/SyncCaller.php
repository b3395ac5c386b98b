<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Netns;

/**
 * A caller's kept connection to the relay that reads answers the way an HTTP/1.1 client does:
 * a head up to CRLF CRLF, then a body in chunks (chunked wins, as RFC 9112 6.3 says), by
 * Content-Length, or up to the close. Whatever
 * follows an answer stays buffered and is read as the next one, as a client on a kept
 * connection would: that is how a desynchronized relay forges answers.
 */
final class SyncCaller
{
    private string $buffer = '';

    private bool $eof = false;

    /** @param resource $socket */
    private function __construct(private readonly mixed $socket) {}

    public function __destruct()
    {
        if (\is_resource($this->socket)) {
            fclose($this->socket);
        }
    }

    public static function open(string $address): self
    {
        $socket = stream_socket_client($address, $errno, $errstr, 2);
        if ($socket === false) {
            throw new \RuntimeException("Cannot reach the relay at $address: $errstr");
        }

        return new self($socket);
    }

    /** Sends a sync-mode GET for $url and reads its answer. */
    public function get(string $url): SyncAnswer
    {
        fwrite($this->socket, "GET $url HTTP/1.1\r\nHost: relay\r\nX-WarmHttp-Mode: sync\r\n\r\n");

        return $this->answer();
    }

    /** Whether the relay closes the connection (with nothing more sent) within $seconds. */
    public function closedByRelay(float $seconds = 1.0): bool
    {
        $deadline = microtime(true) + $seconds;
        while (!$this->eof && $this->buffer === '' && microtime(true) < $deadline) {
            $this->fill(0.05);
        }

        return $this->eof && $this->buffer === '';
    }

    private function answer(): SyncAnswer
    {
        $end = $this->await(fn(): int|false => strpos($this->buffer, "\r\n\r\n"));
        $head = $this->cut($end + 4);
        $answer = SyncAnswer::head($head);
        $length = $answer->header('content-length');
        $body = match (true) {
            $answer->header('transfer-encoding') === 'chunked' => $this->chunks(),
            $length !== null => $this->cut($this->await(fn(): int|false => \strlen($this->buffer) >= (int) $length ? (int) $length : false)),
            default => $this->cut($this->await(fn(): int|false => $this->eof ? \strlen($this->buffer) : false)),
        };

        return $answer->withBody($body);
    }

    private function chunks(): string
    {
        $body = '';
        while (true) {
            $eol = $this->await(fn(): int|false => strpos($this->buffer, "\r\n"));
            $size = (int) hexdec($this->cut($eol + 2));
            $chunk = $this->cut($this->await(fn(): int|false => \strlen($this->buffer) >= $size + 2 ? $size + 2 : false));
            if ($size === 0) {
                return $body;
            }
            $body .= substr($chunk, 0, $size);
        }
    }

    /**
     * Reads until $ready finds what it needs in the buffer (5 s at most).
     *
     * @param \Closure(): (int|false) $ready
     */
    private function await(\Closure $ready): int
    {
        $deadline = microtime(true) + 5;
        while (($found = $ready()) === false) {
            if ($this->eof) {
                $partial = $this->cut(\strlen($this->buffer));

                throw new SyncClosedConnection('The relay closed the connection in the middle of an answer; received: ' . json_encode($partial));
            }
            if (microtime(true) > $deadline) {
                throw new \RuntimeException('No complete answer within 5 s; received: ' . json_encode($this->buffer));
            }
            $this->fill(0.1);
        }

        return $found;
    }

    private function fill(float $wait): void
    {
        $read = [$this->socket];
        $write = $except = null;
        if (stream_select($read, $write, $except, 0, (int) ($wait * 1e6)) !== 1) {
            return;
        }
        $bytes = fread($this->socket, 65536);
        if ($bytes === false || $bytes === '') {
            $this->eof = true;

            return;
        }
        $this->buffer .= $bytes;
    }

    private function cut(int $length): string
    {
        $bytes = substr($this->buffer, 0, $length);
        $this->buffer = (string) substr($this->buffer, $length);

        return $bytes;
    }
}
