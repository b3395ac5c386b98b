<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Worker;

use WarmHttp\Relay\Storage\SpooledRequest;

/**
 * Spooled requests that are due but wait for a delivery slot, kept in memory in one queue per
 * origin, oldest first. Without it every freed slot meant a spool query that skipped the rows
 * in flight: 11% of the delivery worker's CPU under a backlog (excimer, 10,000 deliveries).
 * Bounded by count and body bytes; what does not fit stays in the spool only and is read
 * from there once this has drained.
 *
 * @internal
 */
final class Backlog
{
    /** @var array<string, \SplQueue<SpooledRequest>> origin => its waiting requests */
    private array $queues = [];

    /** @var array<int, true> ids held */
    private array $ids = [];

    private int $bytes = 0;

    public function __construct(private readonly int $maxRequests = 4096, private readonly int $maxBytes = 32 * 1048576) {}

    /** @return bool false when full: the request stays in the spool only */
    public function push(SpooledRequest $request, string $origin): bool
    {
        if (isset($this->ids[$request->id])) {
            return true;
        }
        // An empty backlog holds a request whatever its size (--max-body may be over maxBytes):
        // refused here, it was refused on every look at the spool, and wedged the worker.
        if ($this->ids !== [] && (\count($this->ids) >= $this->maxRequests || $this->bytes + \strlen($request->body) > $this->maxBytes)) {
            return false;
        }
        if (!isset($this->queues[$origin])) {
            /** @var \SplQueue<SpooledRequest> $queue */
            $queue = new \SplQueue();
            $this->queues[$origin] = $queue;
        }
        $this->queues[$origin]->enqueue($request);
        $this->ids[$request->id] = true;
        $this->bytes += \strlen($request->body);

        return true;
    }

    public function count(): int
    {
        return \count($this->ids);
    }

    /** @return array<int, true> */
    public function ids(): array
    {
        return $this->ids;
    }

    /**
     * Starts waiting requests while $room allows, round-robin over the origins $hasRoom admits
     * (asked before each start, so it sees the starts before it).
     *
     * @param \Closure(string): bool                 $hasRoom whether the origin may start one more now
     * @param \Closure(SpooledRequest, string): void $start
     *
     * @return int how many were started
     */
    public function drain(int $room, \Closure $hasRoom, \Closure $start): int
    {
        $started = 0;
        do {
            $progress = false;
            foreach ($this->queues as $origin => $queue) {
                if ($started === $room) {
                    return $started;
                }
                if (!$hasRoom($origin)) {
                    continue;
                }
                $request = $queue->dequeue();
                unset($this->ids[$request->id]);
                $this->bytes -= \strlen($request->body);
                if ($queue->isEmpty()) {
                    unset($this->queues[$origin]);
                }
                $start($request, $origin);
                ++$started;
                $progress = true;
            }
        } while ($progress);

        return $started;
    }
}
