<?php

declare(strict_types=1);

namespace WarmHttp\Rig\Server;

/**
 * One direction of a proxied connection: every chunk read from $from is held until
 * read time + delay, then written to $to in order; EOF travels the same way (as a half-close).
 * $notBefore holds the first bytes back as if they had been sent only once the (simulated) TCP
 * handshake completed.
 *
 * @internal test/bench tooling
 */
final class ProxyPipe
{
    /** Stop reading while this much is held, so a 1 GB download cannot fill the memory. */
    private const MAX_HELD = 8 << 20;

    /** @var \SplQueue<array{float, ?string}> due time and chunk; null chunk = EOF */
    private \SplQueue $queue;
    private int $held = 0;
    private string $out = '';
    private bool $eofRead = false;
    private bool $eofDue = false;
    private bool $eofSent = false;
    private bool $failed = false;

    /**
     * @param resource $from
     * @param resource $to
     */
    public function __construct(
        public readonly mixed $from,
        public readonly mixed $to,
        private readonly float $delaySeconds,
        private readonly float $notBefore = 0.0,
    ) {
        $this->queue = new \SplQueue();
    }

    public function wantsRead(): bool
    {
        return !$this->eofRead && $this->held < self::MAX_HELD;
    }

    public function wantsWrite(): bool
    {
        return $this->out !== '';
    }

    /**
     * @return int bytes read
     */
    public function onReadable(float $now): int
    {
        $data = @fread($this->from, 65536);
        if ($data === false || ($data === '' && feof($this->from))) {
            $this->eofRead = true;
            $this->queue->enqueue([$this->due($now), null]);

            return 0;
        }
        $this->queue->enqueue([$this->due($now), $data]);
        $this->held += \strlen($data);

        return \strlen($data);
    }

    public function release(float $now): void
    {
        while (!$this->queue->isEmpty() && $this->queue->bottom()[0] <= $now) {
            $chunk = $this->queue->dequeue()[1];
            if ($chunk === null) {
                $this->eofDue = true;
            } else {
                $this->out .= $chunk;
            }
        }
        $this->flush();
    }

    public function onWritable(): void
    {
        $this->flush();
    }

    /** Chunks (and EOF) held, not yet due. */
    public function held(): int
    {
        return $this->queue->count();
    }

    public function nextDue(): ?float
    {
        return $this->queue->isEmpty() ? null : $this->queue->bottom()[0];
    }

    public function done(): bool
    {
        return $this->eofSent;
    }

    public function failed(): bool
    {
        return $this->failed;
    }

    private function due(float $now): float
    {
        return max($now, $this->notBefore) + $this->delaySeconds;
    }

    private function flush(): void
    {
        if ($this->out !== '' && !$this->failed) {
            $written = @fwrite($this->to, $this->out);
            if ($written === false) {
                $this->failed = true;

                return;
            }
            $this->out = substr($this->out, $written);
            $this->held -= $written;
        }
        if ($this->out === '' && $this->eofDue && !$this->eofSent) {
            $this->eofSent = true;
            @stream_socket_shutdown($this->to, \STREAM_SHUT_WR);
        }
    }
}
