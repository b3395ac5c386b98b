<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Worker;

/**
 * The RetryPolicy's answer for one attempt: the verdict, when to try again (Retry only) and
 * why, in words for the log and relay:failed.
 *
 * @internal
 */
final readonly class Decision
{
    private function __construct(
        public Verdict $verdict,
        public float $retryAt,
        public string $reason,
    ) {}

    public static function delivered(string $note = ''): self
    {
        return new self(Verdict::Delivered, 0.0, $note);
    }

    public static function retryAt(float $at, string $reason): self
    {
        return new self(Verdict::Retry, $at, $reason);
    }

    public static function dead(string $reason): self
    {
        return new self(Verdict::Dead, 0.0, $reason);
    }
}
