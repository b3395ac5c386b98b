<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Front;

use WarmHttp\Relay\Wire\BadWireRequest;
use WarmHttp\Relay\Wire\ChunkedBody;
use WarmHttp\Relay\Wire\RequestHead;
use WarmHttp\Relay\Wire\RequestParser;
use WarmHttp\Relay\Wire\WireRequest;

/**
 * One caller's connection to the relay. Requests on it are answered strictly in order, one at
 * a time: while one waits for its spool commit or upstream response, the next stays buffered.
 *
 * It keeps its place in what it has read (how far the head was searched, the chunked decoder's
 * state), so no byte is parsed twice, and it knows when it last moved a byte, for the front's
 * idle and head timeouts (FrontLimits).
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

    /** When a byte last moved either way (monotonic seconds). */
    public float $lastActive;

    /**
     * Since when the head being read has been awaited: from the connection's start for the
     * first request (a caller connects to send one), else from its first byte; null between
     * requests.
     */
    public ?float $headSince;

    private ?RequestHead $head = null;

    /** How much of $in the head search has seen. */
    private int $scanned = 0;

    private ?ChunkedBody $chunked = null;

    /** Where the chunked body starts in $in: past the head until the decoder first takes bytes. */
    private int $bodyFrom = 0;

    private bool $continueSent = false;

    /** @param resource $socket */
    public function __construct(public readonly mixed $socket, public readonly bool $needsToken, float $now)
    {
        stream_set_blocking($socket, false);
        $this->lastActive = $now;
        $this->headSince = $now;
    }

    /** @return bool false when the peer has closed or the socket broke */
    public function read(float $now): bool
    {
        $bytes = @fread($this->socket, self::READ_BYTES);
        if ($bytes === false || ($bytes === '' && feof($this->socket))) {
            $this->gone = true;

            return false;
        }
        // A closing connection's input is read only so that closing it sends no reset.
        if ($bytes !== '' && !$this->closing) {
            $this->lastActive = $now;
            if ($this->head === null && $this->headSince === null) {
                $this->headSince = $now;
            }
            $this->in .= $bytes;
        }

        return true;
    }

    /**
     * The next complete request, or null while it is still arriving.
     *
     * @throws BadWireRequest
     */
    public function takeRequest(int $maxBodyBytes): ?WireRequest
    {
        if ($this->head === null && !$this->readHead($maxBodyBytes)) {
            return null;
        }
        \assert($this->head !== null);
        try {
            $body = $this->head->chunked ? $this->chunkedBody() : $this->sizedBody($this->head);
        } catch (BadWireRequest $e) {
            throw $e->status === 413 ? $e->withHead($this->head) : $e;
        }
        if ($body === null) {
            if (!$this->continueSent && $this->head->expectsContinue()) {
                $this->continueSent = true;
                $this->send("HTTP/1.1 100 Continue\r\n\r\n");
            }

            return null;
        }
        $head = $this->head;
        $this->head = null;
        $this->chunked = null;
        $this->continueSent = false;
        $this->headSince = $this->in === '' ? null : $this->lastActive;

        return new WireRequest($head->method, $head->target, $head->headers, $body, $head->http10, $head->index, $head->upstream, $head);
    }

    /** Bytes this connection holds for requests not yet taken: its share of the input budget. */
    public function bufferedBytes(): int
    {
        return \strlen($this->in) + ($this->chunked?->bufferedBytes() ?? 0);
    }

    /** Between requests, with nothing of the next one read and nothing to write. */
    public function isIdle(): bool
    {
        return !$this->busy && $this->in === '' && $this->head === null && $this->out === '';
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

    /** Stops reading: what is buffered will never be served. */
    public function discardInput(): void
    {
        $this->closing = true;
        $this->in = '';
        $this->head = null;
        $this->chunked = null;
        $this->bodyFrom = 0;
        $this->headSince = null;
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

    /** @throws BadWireRequest */
    private function readHead(int $maxBodyBytes): bool
    {
        $this->head = RequestParser::head($this->in, $maxBodyBytes, $this->scanned);
        if ($this->head === null) {
            $this->scanned = \strlen($this->in);

            return false;
        }
        $this->scanned = 0;
        $this->headSince = null;
        if ($this->head->chunked) {
            $this->chunked = new ChunkedBody($maxBodyBytes);
            $this->bodyFrom = $this->head->length;
        }

        return true;
    }

    /** @throws BadWireRequest */
    private function chunkedBody(): ?string
    {
        \assert($this->chunked !== null);
        // The decoder's bytes leave $in as it takes them (the first time, the head's too).
        $consumed = $this->chunked->feed($this->in, $this->bodyFrom);
        $this->bodyFrom = 0;
        if ($consumed > 0) {
            $this->in = substr($this->in, $consumed);
        }

        return $this->chunked->isComplete() ? $this->chunked->body() : null;
    }

    private function sizedBody(RequestHead $head): ?string
    {
        $length = $head->contentLength ?? 0;
        if (\strlen($this->in) < $head->length + $length) {
            return null;
        }
        $body = substr($this->in, $head->length, $length);
        $this->in = (string) substr($this->in, $head->length + $length);

        return $body;
    }
}
