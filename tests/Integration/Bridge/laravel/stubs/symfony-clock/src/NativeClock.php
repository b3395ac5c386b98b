<?php

declare(strict_types=1);

namespace Symfony\Component\Clock;

/** Test-only stand-in for symfony/clock's NativeClock (same behaviour), for nesbot/carbon. */
final class NativeClock implements ClockInterface
{
    private \DateTimeZone $timezone;

    public function __construct(\DateTimeZone|string|null $timezone = null)
    {
        $this->timezone = \is_string($timezone) ? new \DateTimeZone($timezone) : ($timezone ?? new \DateTimeZone(date_default_timezone_get()));
    }

    public function now(): \DateTimeImmutable
    {
        return new \DateTimeImmutable('now', $this->timezone);
    }

    public function sleep(float|int $seconds): void
    {
        if ($seconds > 0) {
            usleep((int) ($seconds * 1e6));
        }
    }

    public function withTimeZone(\DateTimeZone|string $timezone): static
    {
        $clone = clone $this;
        $clone->timezone = \is_string($timezone) ? new \DateTimeZone($timezone) : $timezone;

        return $clone;
    }
}
