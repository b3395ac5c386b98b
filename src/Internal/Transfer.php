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

    /** Header lines received so far (streamed responses only). */
    private string $head = '';

    /** Set when the response is buffered under `max_response_bytes`. */
    public readonly ?CappedBuffer $cappedBody;

    /** Set when the response body is streamed (ResponseSink::Streamed). */
    public readonly ?BodyBuffer $streamedBody;

    public function __construct(
        public readonly TransferSpec $spec,
        public readonly Exchange $exchange,
    ) {
        $this->streamedBody = $spec->sink === ResponseSink::Streamed ? new BodyBuffer() : null;
        $this->cappedBody = $spec->maxResponseBytes !== null && $spec->sink === ResponseSink::Buffered ? new CappedBuffer($spec->maxResponseBytes) : null;
    }

    /** Whether its easy handle got PHP callbacks, which must be cleared before recycling. */
    public function usesCallbacks(): bool
    {
        return $this->streamedBody !== null || $this->cappedBody !== null || isset($this->spec->curlOptions[\CURLOPT_READFUNCTION]);
    }

    public function isSettled(): bool
    {
        return $this->outcome !== null;
    }

    public function isReady(): bool
    {
        return $this->outcome !== null;
    }

    /** CURLOPT_HEADERFUNCTION of a streamed response; a new status line starts a new block. */
    public function receiveHeaderLine(string $line): int
    {
        if (str_starts_with($line, 'HTTP/')) {
            $this->head = '';
        }
        $this->head .= $line;

        return \strlen($line);
    }

    public function head(): string
    {
        return $this->head;
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
