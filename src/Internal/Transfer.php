<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\ResponseInterface;

/**
 * One request on its way through the pool: what to send (its TransferSpec), who turns curl's
 * result into an outcome (its Exchange), and, once settled, that outcome.
 *
 * @internal
 */
final class Transfer implements Waitable
{
    private ResponseInterface|ClientExceptionInterface|null $outcome = null;

    private int $attempts = 0;

    /** @var list<\Closure(self): void> */
    private array $listeners = [];

    /**
     * Set by a client with listeners only: told when a streamed body has arrived whole, or failed
     * (the transfer settled at its head).
     *
     * @var \Closure(?ClientExceptionInterface): void|null
     */
    private ?\Closure $onBodyEnd = null;

    /** @var array{?ClientExceptionInterface}|null the streamed body's end, once it came */
    private ?array $bodyEnd = null;

    /**
     * Every header line curl passed, as it passed them (streamed responses, and a HEAD sent
     * with a body): head() reads the final head out of them when asked.
     */
    private string $headerLines = '';

    /** The transfer was stopped at the end of its final head (a HEAD sent with a body). */
    private bool $stoppedAtHead = false;

    /** No byte moved for the `read_timeout` option's time: the transfer was stopped (ReadTimeout). */
    private bool $readTimedOut = false;

    /**
     * Set when the response is buffered under `max_response_bytes`. This and the other public
     * properties are plain ones, set in the constructor only: one transfer is made per
     * request, and PHP 8.2 writes native readonly properties on the VM's slow path.
     */
    public ?CappedBuffer $cappedBody = null;

    /** Set when the response body is streamed (ResponseSink::Streamed). */
    public ?BodyBuffer $streamedBody = null;

    /**
     * @readonly
     *
     * @var TransferSpec
     */
    public $spec;

    /**
     * @readonly
     *
     * @var Exchange
     */
    public $exchange;

    /**
     * $spec and $exchange are typed by their docblocks only: PHP 8.2 without opcache resolves
     * a property's class type by name on every write (~230 instructions each of a transfer's
     * ~1.6 k, callgrind, issue 16); the parameters keep the types.
     */
    public function __construct(TransferSpec $spec, Exchange $exchange)
    {
        $this->spec = $spec;
        $this->exchange = $exchange;
        if ($spec->sink === ResponseSink::Streamed) {
            $this->streamedBody = new BodyBuffer();
        } elseif ($spec->maxResponseBytes !== null && $spec->sink === ResponseSink::Buffered) {
            $this->cappedBody = new CappedBuffer($spec->maxResponseBytes);
        }
    }

    /** Whether its easy handle got PHP callbacks, which must be cleared before recycling. */
    public function usesCallbacks(): bool
    {
        return $this->streamedBody !== null || $this->cappedBody !== null || isset($this->spec->curlOptions[\CURLOPT_READFUNCTION]) || isset($this->spec->curlOptions[\CURLOPT_XFERINFOFUNCTION]) || $this->stopsAtHead();
    }

    /**
     * A HEAD that carries a body goes as a custom "HEAD" (CurlOptions::methodOf): libcurl 7.88
     * sends no body with CURLOPT_NOBODY, and without it waits for the body a Content-Length
     * announces, which a HEAD answer never has (curl error 18 or a timeout).
     */
    public function stopsAtHead(): bool
    {
        return $this->spec->method === 'HEAD' && ($this->spec->curlOptions[\CURLOPT_CUSTOMREQUEST] ?? null) === 'HEAD';
    }

    public function isSettled(): bool
    {
        return $this->outcome !== null;
    }

    public function isReady(): bool
    {
        return $this->outcome !== null;
    }

    /**
     * CURLOPT_HEADERFUNCTION of a streamed response, given to curl as it is (one PHP frame per
     * line, not a closure calling a method): the line is only kept, head() reads them once.
     */
    public function headerLine(\CurlHandle $handle, string $line): int
    {
        $this->headerLines .= $line;

        return \strlen($line);
    }

    /** A header line as curl passes it (headerLine() without its handle). */
    public function receiveHeaderLine(string $line): int
    {
        $this->headerLines .= $line;

        return \strlen($line);
    }

    /**
     * CURLOPT_HEADERFUNCTION of a HEAD sent with a body: the transfer is stopped at the blank
     * line of the final (non-1xx) head, since libcurl 7.88 would wait there for the body the
     * head's Content-Length announces (over HTTP/2 too, where nginx ends the stream with the
     * head). The pool takes the write error this causes as the end of the answer
     * (stoppedAtHead()); curl closes that connection, or resets that HTTP/2 stream.
     */
    public function receiveHeadOnly(string $line): int
    {
        $length = $this->receiveHeaderLine($line);
        if ($line === "\r\n" && !$this->isInterim()) {
            $this->stoppedAtHead = true;

            return 0;
        }

        return $length;
    }

    /** A 1xx head ("HTTP/1.1 103 Early Hints", "HTTP/2 100"): the final one follows it. */
    private function isInterim(): bool
    {
        $head = $this->head();
        $space = strpos($head, ' ');

        return $space !== false && ($head[$space + 1] ?? '') === '1';
    }

    public function readTimedOut(): void
    {
        $this->readTimedOut = true;
    }

    /** Whether the transfer was stopped by its read timeout (curl then reports CURLE_ABORTED_BY_CALLBACK). */
    public function hasReadTimedOut(): bool
    {
        return $this->readTimedOut;
    }

    public function stoppedAtHead(): bool
    {
        return $this->stoppedAtHead;
    }

    /**
     * The final head so far: from the last status line (one starts a new head, after a 1xx or
     * a redirect curl follows) to the blank line after it. The lines curl passes after that
     * blank line are a chunked body's trailer fields, left out: PSR-7 has no place for them,
     * and kept in the head they would be read as the head.
     */
    public function head(): string
    {
        $lines = $this->headerLines;
        $start = strrpos($lines, "\nHTTP/");
        $start = $start === false ? 0 : $start + 1;
        $end = strpos($lines, "\n\r\n", $start);

        return $end === false ? substr($lines, $start) : substr($lines, $start, $end + 3 - $start);
    }

    public function attempt(): int
    {
        return ++$this->attempts;
    }

    public function attempts(): int
    {
        return $this->attempts;
    }

    public function settle(ResponseInterface|ClientExceptionInterface $outcome): void
    {
        if ($this->outcome !== null) {
            return;
        }
        $this->outcome = $outcome;
        $listeners = $this->listeners;
        $this->listeners = [];
        foreach ($listeners as $listener) {
            $listener($this);
        }
    }

    /**
     * The streamed body's end: its buffer is told (a reader sees the failure, if any), then the
     * listener set with onBodyEnd(), once. Nothing to do for a buffered body.
     */
    public function finishStreamedBody(?ClientExceptionInterface $failure): void
    {
        if ($this->streamedBody === null) {
            return;
        }
        $this->streamedBody->finish($failure);
        $this->bodyEnd ??= [$failure];
        $listener = $this->onBodyEnd;
        $this->onBodyEnd = null;
        $listener?->__invoke($failure);
    }

    /**
     * @param \Closure(?ClientExceptionInterface): void $listener called once, when a streamed body
     *                                                       ends (at once if it already has)
     */
    public function onBodyEnd(\Closure $listener): void
    {
        if ($this->bodyEnd !== null) {
            $listener($this->bodyEnd[0]);

            return;
        }
        $this->onBodyEnd = $listener;
    }

    /** @param \Closure(self): void $listener called once, when the transfer settles */
    public function onSettle(\Closure $listener): void
    {
        if ($this->outcome !== null) {
            $listener($this);

            return;
        }
        $this->listeners[] = $listener;
    }

    public function outcome(): ResponseInterface|ClientExceptionInterface|null
    {
        return $this->outcome;
    }

    /** @throws ClientExceptionInterface */
    public function response(): ResponseInterface
    {
        $outcome = $this->outcome ?? throw new \LogicException('The transfer has not settled yet.');
        if ($outcome instanceof ClientExceptionInterface) {
            throw $outcome;
        }

        return $outcome;
    }
}
