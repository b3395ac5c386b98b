<?php

declare(strict_types=1);

namespace WarmHttp\Internal\Relay;

use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Exception\TimeoutException;

/**
 * Sync mode: forwards a caller's request over the relay's warm pooled connections and answers
 * with the destination's response. An error of the relay itself carries X-WarmHttp-Error.
 *
 * @internal
 */
final class SyncForwarder
{
    private int $inFlight = 0;

    public function __construct(private readonly Upstream $upstream, private readonly Metrics $metrics) {}

    public function inFlight(): int
    {
        return $this->inFlight;
    }

    /** @param \Closure(string): void $reply called once with the whole answer */
    public function forward(WireRequest $wire, \Closure $reply): void
    {
        $this->metrics->add('sync_requests_total');
        try {
            $request = Upstream::request($wire->method, $wire->target, HeaderFilter::forUpstream($wire->headers), $wire->body);
            $transfer = $this->upstream->forward($request);
        } catch (RefusedDestination $e) {
            $reply(WireResponse::relayError(403, $e->getMessage()));

            return;
        } catch (UnresolvableHost $e) {
            $reply(WireResponse::relayError(502, $e->getMessage()));

            return;
        } catch (\InvalidArgumentException $e) {
            $reply(WireResponse::relayError(400, $e->getMessage()));

            return;
        }
        ++$this->inFlight;
        $head = $wire->method === 'HEAD';
        $transfer->onSettle(function () use ($transfer, $reply, $head): void {
            --$this->inFlight;
            $reply(self::answer($transfer->outcome(), $head));
        });
    }

    private static function answer(ResponseInterface|ClientExceptionInterface|null $outcome, bool $head): string
    {
        if (!$outcome instanceof ResponseInterface) {
            $message = $outcome?->getMessage() ?? 'no outcome';

            return WireResponse::relayError($outcome instanceof TimeoutException ? 504 : 502, $message);
        }
        /** @var array<string, list<string>> $given */
        $given = $outcome->getHeaders();
        $headers = HeaderFilter::forCaller($given);
        if ($head && $outcome->hasHeader('Content-Length')) {
            return WireResponse::renderHead($outcome->getStatusCode(), $headers, $outcome->getHeaderLine('Content-Length'), $outcome->getReasonPhrase());
        }

        return WireResponse::render($outcome->getStatusCode(), (string) $outcome->getBody(), $headers, false, $outcome->getReasonPhrase());
    }
}
