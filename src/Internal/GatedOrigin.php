<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

/**
 * What the MultiplexGate knows of one origin while transfers to it are in flight: how many it
 * handed to curl, how many connections those may use, and which wait for a stream.
 *
 * @internal
 */
final class GatedOrigin
{
    /** Transfers handed to curl. */
    public int $inCurl = 0;

    /** Connections whose streams may be used: grows by one each time an opener succeeds. */
    public int $connections = 1;

    /** The transfer opening the next connection, if one is under way. */
    public ?int $opener = null;

    /** Null until a response tells: true for HTTP/2, false for HTTP/1.x (then nothing waits). */
    public ?bool $multiplexes = null;

    /** @var array<int, Transfer> waiting for a stream, oldest first, by spl_object_id */
    public array $waiting = [];

    /**
     * Takes one more transfer into curl if a stream (or the opening of a connection) is free,
     * or at once if the origin does not multiplex.
     */
    public function take(Transfer $transfer, int $streamsPerConnection): bool
    {
        $id = spl_object_id($transfer);
        if ($this->multiplexes !== false && $this->inCurl >= $this->connections * $streamsPerConnection) {
            if ($this->opener !== null || $this->multiplexes !== true) {
                return false;
            }
            $this->opener = $id;
        }
        ++$this->inCurl;

        return true;
    }

    /**
     * A transfer taken into curl left it. An opener adds a connection only if it did open one
     * over HTTP/2: curl may have found a free stream after all.
     */
    public function release(Transfer $transfer, bool $openedMultiplexed): void
    {
        --$this->inCurl;
        if ($this->opener === spl_object_id($transfer)) {
            $this->opener = null;
            if ($openedMultiplexed) {
                ++$this->connections;
            }
        }
    }

    public function isIdle(): bool
    {
        return $this->inCurl === 0 && $this->waiting === [];
    }
}
