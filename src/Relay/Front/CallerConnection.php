<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Front;

use WarmHttp\Relay\Wire\BadWireRequest;
use WarmHttp\Relay\Wire\RequestHead;
use WarmHttp\Relay\Wire\RequestParser;
use WarmHttp\Relay\Wire\WireRequest;

/**
 * One caller's connection to the relay. Requests on it are answered strictly in order, one at
 * a time: while one waits for its spool commit or upstream response, the next stays buffered.
 *
 * @internal
 */
final class CallerConnection
{
    private const READ_BYTES = 65536;

    public string $in = '';

    public string $out = '';

    /** Waiting for an answer to a request already taken off $in. */
    public bool $busy = false;

    /** The caller closed its end or the socket broke: nothing more can be written to it. */
    public bool $gone = false;

    /** Close once $out has been written. */
    public bool $closing = false;

    private ?RequestHead $head = null;

    private bool $continueSent = false;

    /** @param resource $socket */
    public function __construct(public readonly mixed $socket, public readonly bool $needsToken)
    {
        stream_set_blocking($socket, false);
    }

    /** @return bool false when the peer has closed or the socket broke */
    public function read(): bool
    {
        $bytes = @fread($this->socket, self::READ_BYTES);
        if ($bytes === false || ($bytes === '' && feof($this->socket))) {
            $this->gone = true;

            return false;
        }
        $this->in .= $bytes;

        return true;
    }

    /**
     * The next complete request, or null while it is still arriving.
     *
     * @throws BadWireRequest
     */
    public function takeRequest(int $maxBodyBytes): ?WireRequest
    {
        $this->head ??= RequestParser::head($this->in, $maxBodyBytes);
        if ($this->head === null) {
            return null;
        }
        $complete = RequestParser::body($this->in, $this->head, $maxBodyBytes);
        if ($complete === null) {
            if (!$this->continueSent && $this->head->expectsContinue()) {
                $this->continueSent = true;
                $this->send("HTTP/1.1 100 Continue\r\n\r\n");
            }

            return null;
        }
        [$body, $consumed] = $complete;
        $head = $this->head;
        $this->in = (string) substr($this->in, $consumed);
        $this->head = null;
        $this->continueSent = false;

        return new WireRequest($head->method, $head->target, $head->headers, $body, $head->http10);
    }

    public function send(string $bytes): void
    {
        $this->out .= $bytes;
        $this->flush();
    }

    /** @return bool false when the socket broke */
    public function flush(): bool
    {
        while ($this->out !== '') {
            $written = @fwrite($this->socket, $this->out);
            if ($written === false) {
                $this->gone = true;

                return false;
            }
            if ($written === 0) {
                return true; // the kernel buffer is full: wait for writability
            }
            $this->out = substr($this->out, $written);
        }

        return true;
    }

    public function isDone(): bool
    {
        return $this->closing && $this->out === '' && !$this->busy;
    }

    public function close(): void
    {
        if (\is_resource($this->socket)) {
            fclose($this->socket);
        }
    }
}
