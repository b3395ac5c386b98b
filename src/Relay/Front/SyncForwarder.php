<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Front;

use WarmHttp\Internal\Transfer;
use WarmHttp\Internal\TransferSpec;
use WarmHttp\Relay\Guard\RefusedDestination;
use WarmHttp\Relay\Guard\UnresolvableHost;
use WarmHttp\Relay\Metrics;
use WarmHttp\Relay\Outbound\SyncSettings;
use WarmHttp\Relay\Outbound\Upstream;
use WarmHttp\Relay\Wire\RequestHead;
use WarmHttp\Relay\Wire\Target;
use WarmHttp\Relay\Wire\WireRequest;

/**
 * Sync mode: forwards a caller's request over the relay's warm pooled connections and streams
 * the destination's response back (StreamedAnswer), with the caller's transfer settings
 * (SyncSettings). A request that gets no response is the relay's own answer naming the
 * failure (SyncFailure), which the Client turns into the exception a direct call throws.
 *
 * @internal
 */
final class SyncForwarder
{
    /** @var array<int, StreamedAnswer> answers not yet fully written, by their connection's object id */
    private array $answers = [];

    /**
     * The spec a repeated head was last forwarded with (unguarded, body-less, a pool profile),
     * by the parser's kept head: a Client sends the same head request after request, and its
     * settings, target, header lines and options came out the same each time.
     *
     * @var \WeakMap<RequestHead, TransferSpec>
     */
    private \WeakMap $specs;

    public function __construct(private readonly Upstream $upstream, private readonly Metrics $metrics)
    {
        $this->specs = new \WeakMap();
    }

    /** Sync requests whose answer is not yet fully handed to the caller's socket. */
    public function inFlight(): int
    {
        return \count($this->answers);
    }

    /**
     * @param bool              $guarded  the destination guard applies: the caller asked for it
     *                                    (X-WarmHttp-Guard) or the relay runs with --guard-sync
     * @param \Closure(): void $finished called once, when the caller has its whole answer
     */
    public function forward(WireRequest $wire, CallerConnection $connection, bool $guarded, \Closure $finished): void
    {
        $this->metrics->add('sync_requests_total');
        $head = $guarded || $wire->body !== '' ? null : $wire->head;
        $spec = $head === null ? null : ($this->specs[$head] ?? null);
        try {
            $transfer = $spec === null ? $this->firstOfHead($wire, $guarded, $head) : $this->upstream->forwardAgain($spec);
        } catch (RefusedDestination $e) {
            $this->refuse($connection, SyncFailure::answer(403, 'refused', $e->getMessage()), $finished);

            return;
        } catch (UnresolvableHost $e) {
            $this->refuse($connection, SyncFailure::answer(502, 'network', $e->getMessage()), $finished);

            return;
        } catch (\InvalidArgumentException $e) {
            $this->refuse($connection, SyncFailure::answer(400, 'request', $e->getMessage()), $finished);

            return;
        }
        \assert($transfer->streamedBody !== null);
        // A connection has one request answered at a time, so it keys its answer.
        $id = spl_object_id($connection);
        $answer = new StreamedAnswer($transfer, $transfer->streamedBody, $connection, $wire, function () use ($id, $finished): void {
            unset($this->answers[$id]);
            $finished();
        });
        $this->answers[$id] = $answer;
        $transfer->onSettle(static fn() => $answer->start());
    }

    /**
     * @param RequestHead|null $head the parser's head, when what is made for it may be kept
     *
     * @throws RefusedDestination
     * @throws UnresolvableHost
     * @throws \InvalidArgumentException
     */
    private function firstOfHead(WireRequest $wire, bool $guarded, ?RequestHead $head): Transfer
    {
        $sent = self::asSent($wire);
        $headers = $sent === [] ? $wire->upstreamHeaders() : [...$wire->upstreamHeaders(), ...$sent];
        $transfer = $this->upstream->forward($wire->method, Target::parse($wire->target), $headers, $wire->body, $guarded, $wire->header(SyncSettings::HEADER));
        if ($head !== null && $transfer->spec->profile !== null) {
            // Guarded requests are checked (and pinned) anew each time: DNS may have changed.
            $this->specs[$head] = $transfer->spec;
        }

        return $transfer;
    }

    /**
     * Framing lines a direct call would have sent and the hop-by-hop filter drops: sync mode is
     * the caller's transport, so the destination gets what the request said. A "Content-Length:
     * 0" on a request without a body (curl writes its own length only for a body),
     * "Connection: close" (curl then closes the upstream connection after the answer), and
     * "Expect: 100-continue" (curl then waits for the destination's 100, as directly).
     *
     * @return list<array{string, string}>
     */
    private static function asSent(WireRequest $wire): array
    {
        $lines = [];
        if ($wire->body === '' && ($wire->index['content-length'] ?? null) === '0') {
            $lines[] = ['Content-Length', '0'];
        }
        if (!$wire->keepAlive() && !$wire->http10) {
            $lines[] = ['Connection', 'close'];
        }
        $expect = $wire->index['expect'] ?? null;
        if ($expect !== null && strcasecmp($expect, '100-continue') === 0) {
            $lines[] = ['Expect', $expect];
        }

        return $lines;
    }

    /** Whether some caller's socket is behind its answer (StreamedAnswer::backedUp()). */
    public function backedUp(): bool
    {
        foreach ($this->answers as $answer) {
            if ($answer->backedUp()) {
                return true;
            }
        }

        return false;
    }

    /** Moves received body bytes on to callers; the daemon calls it every round. */
    public function pump(): void
    {
        foreach ($this->answers as $answer) {
            $answer->pump();
        }
    }

    /** @param \Closure(): void $finished */
    private function refuse(CallerConnection $connection, string $answer, \Closure $finished): void
    {
        $connection->send($answer);
        $finished();
    }
}
