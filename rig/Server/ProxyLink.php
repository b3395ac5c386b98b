<?php

declare(strict_types=1);

namespace WarmHttp\Rig\Server;

/**
 * A proxied connection: the accepted client, its upstream, and a delaying pipe each way.
 *
 * @internal test/bench tooling
 */
final class ProxyLink
{
    public readonly ProxyPipe $up;
    public readonly ProxyPipe $down;
    private bool $closed = false;

    /**
     * @param resource $client
     * @param resource $upstream
     */
    public function __construct(public readonly mixed $client, public readonly mixed $upstream, float $delaySeconds, bool $handshake)
    {
        // The kernel completes the client's TCP handshake with our listening socket at once; a
        // real one costs 1 RTT before the client can send, so its first bytes leave no earlier.
        $notBefore = $handshake ? microtime(true) + 2 * $delaySeconds : 0.0;
        $this->up = new ProxyPipe($client, $upstream, $delaySeconds, $notBefore);
        $this->down = new ProxyPipe($upstream, $client, $delaySeconds);
    }

    /**
     * @return list<ProxyPipe>
     */
    public function pipes(): array
    {
        return [$this->up, $this->down];
    }

    /**
     * Closes both sides once both directions delivered their EOF, or at once (RST) when a
     * write failed, so the other peer learns of the abort too.
     */
    public function closeIfFinished(): bool
    {
        if ($this->closed) {
            return true;
        }
        if ($this->up->failed() || $this->down->failed()) {
            SocketCloser::rst($this->client);
            SocketCloser::rst($this->upstream);
        } elseif ($this->up->done() && $this->down->done()) {
            SocketCloser::fin($this->client);
            SocketCloser::fin($this->upstream);
        } else {
            return false;
        }
        $this->closed = true;

        return true;
    }
}
