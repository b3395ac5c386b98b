<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Front;

/**
 * Slows token guessing on the TCP listener to a crawl: after MAX_FAILURES wrong tokens within
 * WINDOW_SECONDS, every token-checked request is refused for BLOCK_SECONDS without its token
 * being compared, right or wrong (a guess that could still succeed during the block would leave
 * the guessing rate unbounded). Unblocked, one connection could try 80,000 tokens a second.
 * The price: during a block, TCP callers with the right token are refused too (429, with
 * Retry-After); the unix socket is not affected.
 *
 * @internal
 */
final class TokenThrottle
{
    public const MAX_FAILURES = 10;

    public const WINDOW_SECONDS = 10.0;

    public const BLOCK_SECONDS = 10.0;

    /** @var list<float> monotonic times of the failures within the window */
    private array $failures = [];

    private float $blockedUntil = 0.0;

    public function isBlocked(float $now): bool
    {
        return $now < $this->blockedUntil;
    }

    /** Whole seconds until tokens are checked again. */
    public function retryAfter(float $now): int
    {
        return max(1, (int) ceil($this->blockedUntil - $now));
    }

    /** @return bool whether this failure starts a block */
    public function failed(float $now): bool
    {
        $this->failures = array_values(array_filter($this->failures, static fn(float $at): bool => $at > $now - self::WINDOW_SECONDS));
        $this->failures[] = $now;
        if (\count($this->failures) < self::MAX_FAILURES) {
            return false;
        }
        $this->blockedUntil = $now + self::BLOCK_SECONDS;
        $this->failures = [];

        return true;
    }
}
