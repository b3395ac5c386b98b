<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

/**
 * The `read_timeout` option: a transfer fails when no byte moves either way for that long
 * (waiting for the answer's first byte included, as a socket read timeout would).
 *
 * libcurl calls the progress function on every chunk and, while a transfer is quiet, about
 * once a second (its 1 s speed-check timer): a stall is noticed between `read_timeout` and
 * `read_timeout` + 1 s after the last byte.
 *
 * @internal
 */
final class ReadTimeout
{
    public function __construct(public readonly float $seconds) {}

    /**
     * The client-wide instance sits in the client's curl options; each transfer gets a watch
     * of its own (CurlPool::launch), as a recycled handle must not inherit another's clock.
     */
    public function __invoke(): int
    {
        return 0;
    }

    /** @return \Closure(mixed, int, int, int, int): int CURLOPT_XFERINFOFUNCTION */
    public function watch(Transfer $transfer): \Closure
    {
        $limitNs = (int) ($this->seconds * 1e9);
        $last = hrtime(true);
        $moved = -1;

        return static function ($ch, int $downTotal, int $down, int $upTotal, int $up) use ($transfer, $limitNs, &$last, &$moved): int {
            $now = hrtime(true);
            // Unread bytes of a streamed body: the reader is behind (and the transfer perhaps
            // paused for it), not the server.
            if ($down + $up !== $moved || $transfer->streamedBody?->buffered() > 0) {
                $moved = $down + $up;
                $last = $now;

                return 0;
            }
            if ($now - $last <= $limitNs) {
                return 0;
            }
            $transfer->readTimedOut();

            return 1; // CURLE_ABORTED_BY_CALLBACK, reported as the read timeout
        };
    }
}
