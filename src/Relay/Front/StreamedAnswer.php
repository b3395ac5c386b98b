<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Front;

use Psr\Http\Message\ResponseInterface;
use WarmHttp\Internal\BodyBuffer;
use WarmHttp\Internal\CurlPool;
use WarmHttp\Internal\Transfer;
use WarmHttp\Relay\Outbound\UpstreamExchange;
use WarmHttp\Relay\Outbound\UpstreamFailure;
use WarmHttp\Relay\Wire\AnswerHead;
use WarmHttp\Relay\Wire\WireRequest;
use WarmHttp\Relay\Wire\WireResponse;

/**
 * One sync-mode answer on its way to the caller: the destination's status and headers as soon
 * as they arrive, then its body as curl receives it. Nothing is held whole: while the caller's
 * socket is behind, body bytes wait in the transfer's buffer, and curl pauses the transfer
 * when that is full (BodyBuffer). A body already complete when the head arrives (most
 * answers) goes out in one write with its Content-Length. A head whose framing is ambiguous is
 * a 502 (BodyFraming); a body that ends before or runs past its announced length closes the
 * caller's connection, which is never kept where caller and relay could disagree on where the
 * next answer starts.
 *
 * @internal
 */
final class StreamedAnswer
{
    /** Body bytes waiting for the caller's socket beyond which no more are taken from curl. */
    private const CALLER_HIGH_WATER = 262144;

    /** The destination's HTTP version, where it is not the caller's hop's 1.1. */
    public const VERSION = 'X-WarmHttp-Version';

    private ?BodyFraming $framing = null;

    private bool $finished = false;

    /** @param \Closure(): void $onFinished called once, when the answer is written or abandoned */
    public function __construct(
        // Not native readonly: one per sync request, and PHP 8.2 writes those on the VM's slow path.
        /** @readonly */
        private Transfer $transfer,
        /** @readonly */
        private BodyBuffer $body,
        /** @readonly */
        private CallerConnection $connection,
        /** @readonly */
        private WireRequest $wire,
        /** @readonly */
        private \Closure $onFinished,
    ) {}

    /** The transfer has settled: its head (and maybe all of its body) is in, or it failed. */
    public function start(): void
    {
        $outcome = $this->transfer->outcome();
        if (!$outcome instanceof ResponseInterface) {
            $this->refuse($outcome instanceof UpstreamFailure
                ? SyncFailure::upstream($outcome, substr($this->transfer->spec->describe(''), 0, -1))
                : SyncFailure::answer(502, 'network', $outcome?->getMessage() ?? 'the upstream transfer ended without an outcome'));

            return;
        }
        $answerHead = $this->answerHead($outcome);
        try {
            $this->framing = BodyFraming::choose($answerHead->status, $answerHead, $this->wire, $this->body);
        } catch (UnframeableAnswer $e) {
            $this->refuse(SyncFailure::answer(502, 'network', $e->getMessage()));

            return;
        }
        $block = $answerHead->block;
        if ($answerHead->version !== '1.1') {
            // The caller's hop is HTTP/1.1 whatever the destination spoke: the Client reports
            // the destination's version, as a direct call does (SyncExchange).
            $block .= self::VERSION . ': ' . $answerHead->version . "\r\n";
        }
        // No reason (HTTP/2 has none) stays none: a blank one, which the Client reads as ''
        // (WireResponse would write the standard phrase for an empty one).
        $head = WireResponse::headWith($answerHead->status, $block, $answerHead->reason === '' ? ' ' : $answerHead->reason, $this->framing->headers());
        if (!$this->framing->isWhole()) {
            $this->connection->send($head);
            $this->pump();

            return;
        }
        // The common case, a body that arrived with its head: one write, no chunk framing, and
        // the answer ends here (what pump() and end() would find, without their checks).
        $this->connection->send($head . $this->body->take(\PHP_INT_MAX));
        if ($this->connection->gone || \strlen($this->connection->out) >= self::CALLER_HIGH_WATER) {
            $this->pump(); // the caller left, or is behind: the answer ends once its socket catches up
        } elseif ($this->body->failure() !== null) {
            $this->close();
        } else {
            $this->finish();
        }
    }

    /**
     * The caller's socket is behind: body bytes wait here, and curl may pause the transfer,
     * leaving its socket unread (the front then polls curl rather than wait on that socket).
     */
    public function backedUp(): bool
    {
        return \strlen($this->connection->out) >= self::CALLER_HIGH_WATER;
    }

    /** Moves what curl has received to the caller, as far as the caller's socket keeps up. */
    public function pump(): void
    {
        if ($this->finished || $this->framing === null) {
            return;
        }
        if ($this->connection->gone) {
            // Nobody reads the rest: stop the transfer (its connection is closed, not reused).
            CurlPool::get()->abort($this->transfer);
            $this->finish();

            return;
        }
        while (\strlen($this->connection->out) < self::CALLER_HIGH_WATER) {
            if ($this->body->isDrained()) {
                $this->end();

                return;
            }
            if (!$this->body->isReady()) {
                return;
            }
            $this->connection->send($this->framing->frame($this->body->take(self::CALLER_HIGH_WATER)));
            if ($this->framing->overran()) {
                // More than the announced length came: what follows is no part of this answer,
                // and the caller must not read it as the next one.
                CurlPool::get()->abort($this->transfer);
                $this->close();

                return;
            }
        }
    }

    private function end(): void
    {
        if ($this->body->failure() !== null || $this->framing === null || $this->framing->closesConnection() || !$this->framing->isSatisfied()) {
            // A body cut short upstream must reach the caller cut short too: close the
            // connection without completing the framing, so the caller's client reports it.
            $this->close();

            return;
        }
        $this->connection->send($this->framing->trailer());
        $this->finish();
    }

    /**
     * The caller's connection ends after what was written: a kept connection must never be
     * left where the caller and the relay disagree on where the next answer starts.
     */
    private function close(): void
    {
        $this->connection->closing = true;
        $this->connection->in = '';
        $this->finish();
    }

    /**
     * An answer of the relay's own instead of the destination's: the transfer, if curl still
     * runs it (a head refused while its body arrives), is stopped and its connection closed.
     */
    private function refuse(string $answer): void
    {
        if (!$this->body->isComplete()) {
            CurlPool::get()->abort($this->transfer);
        }
        $this->connection->send($answer);
        $this->finish();
    }

    private function finish(): void
    {
        if ($this->finished) {
            return;
        }
        $this->finished = true;
        ($this->onFinished)();
    }

    /**
     * The head as the exchange read it from the bytes received (no PSR-7 round trip); from
     * the response for an outcome settled otherwise.
     */
    private function answerHead(ResponseInterface $response): AnswerHead
    {
        $exchange = $this->transfer->exchange;
        $head = $exchange instanceof UpstreamExchange ? $exchange->answerHead() : null;
        if ($head !== null) {
            return $head;
        }
        /** @var array<string, list<string>> $headers */
        $headers = $response->getHeaders();

        return AnswerHead::fromHeaders($headers, $response->getStatusCode(), $response->getProtocolVersion(), $response->getReasonPhrase());
    }
}
