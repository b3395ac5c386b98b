<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

/**
 * The transfer's progress watch: the `read_timeout` option (a transfer fails when no byte
 * moves either way for that long, waiting for the answer's first byte included, as a socket
 * read timeout would) and the `progress` option's callback. libcurl has one progress function
 * per transfer, so both live here; a watch with neither a limit nor a callback (`debug`) only
 * keeps its transfers on the pool's per-transfer path (CurlOptions::debug).
 *
 * libcurl calls the progress function on every chunk and, while a transfer is quiet, about
 * once a second (its 1 s speed-check timer): a stall is noticed between `read_timeout` and
 * `read_timeout` + 1 s after the last byte.
 *
 * @internal
 */
final class ReadTimeout
{
    /** @var (\Closure(int, int, int, int): mixed)|null */
    private readonly ?\Closure $progress;

    /**
     * @param float                                 $seconds  0: no limit
     * @param (callable(int, int, int, int): mixed)|null $progress Guzzle's shape: (download total, downloaded, upload total, uploaded)
     */
    public function __construct(public readonly float $seconds, ?callable $progress = null)
    {
        $this->progress = $progress === null ? null : $progress(...);
    }

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
        $progress = $this->progress;
        if ($this->seconds <= 0) {
            return $progress === null
                ? static fn(): int => 0
                : static fn($ch, int $downTotal, int $down, int $upTotal, int $up): int => self::report($progress, $downTotal, $down, $upTotal, $up);
        }

        return $this->timed($transfer, (int) ($this->seconds * 1e9), $progress);
    }

    /**
     * What the callback returns is ignored, as Guzzle ignores it. An exception must not leave
     * through curl_multi_exec (PHP raises it after libcurl has carried on, in the middle of the
     * pool's round, for every transfer): it stops this transfer (CURLE_ABORTED_BY_CALLBACK).
     *
     * @param \Closure(int, int, int, int): mixed $progress
     */
    private static function report(\Closure $progress, int $downTotal, int $down, int $upTotal, int $up): int
    {
        try {
            $progress($downTotal, $down, $upTotal, $up);
        } catch (\Throwable) {
            return 1;
        }

        return 0;
    }

    /**
     * @param (\Closure(int, int, int, int): mixed)|null $progress
     *
     * @return \Closure(mixed, int, int, int, int): int
     */
    private function timed(Transfer $transfer, int $limitNs, ?\Closure $progress): \Closure
    {
        $last = hrtime(true);
        $moved = -1;

        return static function ($ch, int $downTotal, int $down, int $upTotal, int $up) use ($transfer, $limitNs, $progress, &$last, &$moved): int {
            if ($progress !== null && self::report($progress, $downTotal, $down, $upTotal, $up) !== 0) {
                return 1;
            }
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
