<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;

/**
 * Client::sendAll(): keeps a window of requests in flight, pulling the next one from the input
 * only when a slot frees, so a generator of 100,000 requests never sits in memory at once.
 *
 * @internal
 */
final class Batch
{
    /** @var array<array-key, Transfer> */
    private array $inFlight = [];

    /** @var array<array-key, ResponseInterface|ClientExceptionInterface|null> null until settled */
    private array $results = [];

    private int $done = 0;

    /**
     * @param \Closure(RequestInterface): Transfer $start
     * @param null|callable(array-key, ResponseInterface|ClientExceptionInterface, int): void $onProgress
     */
    public function __construct(
        private readonly \Closure $start,
        private readonly int $concurrency,
        private readonly mixed $onProgress,
    ) {}

    /**
     * @param iterable<array-key, RequestInterface> $requests
     *
     * @return array<array-key, ResponseInterface|ClientExceptionInterface>
     */
    public function run(iterable $requests): array
    {
        foreach ($requests as $key => $request) {
            while (\count($this->inFlight) >= $this->concurrency) {
                $this->waitForOne();
            }
            $this->launch($key, $request);
        }
        while ($this->inFlight !== []) {
            $this->waitForOne();
        }

        /** @var array<array-key, ResponseInterface|ClientExceptionInterface> all settled by now */
        return $this->results;
    }

    private function launch(int|string $key, mixed $request): void
    {
        if (!$request instanceof RequestInterface) {
            throw new \InvalidArgumentException(\sprintf('sendAll(): the item at key %s is %s, not a PSR-7 RequestInterface.', json_encode($key), get_debug_type($request)));
        }
        if (\array_key_exists($key, $this->results)) {
            throw new \InvalidArgumentException(\sprintf('sendAll(): the key %s appears twice in the input; results are keyed like the input, so keys must be unique.', json_encode($key)));
        }
        $this->results[$key] = null; // holds the input order
        try {
            $transfer = ($this->start)($request);
        } catch (ClientExceptionInterface $e) {
            $this->record($key, $e);

            return;
        }
        $this->inFlight[$key] = $transfer;
        $transfer->onSettle(function (Transfer $settled) use ($key): void {
            unset($this->inFlight[$key]);
            $outcome = $settled->outcome();
            \assert($outcome !== null);
            $this->record($key, $outcome);
        });
    }

    private function record(int|string $key, ResponseInterface|ClientExceptionInterface $outcome): void
    {
        $this->results[$key] = $outcome;
        ++$this->done;
        if ($this->onProgress !== null) {
            ($this->onProgress)($key, $outcome, $this->done);
        }
    }

    private function waitForOne(): void
    {
        $waiting = array_values($this->inFlight);
        if ($waiting !== []) {
            Scheduler::awaitAny($waiting);
        }
    }
}
