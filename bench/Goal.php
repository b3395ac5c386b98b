<?php

declare(strict_types=1);

namespace WarmHttp\Bench;

/**
 * One of the project's goals checked against this run, or null when a row it needs is absent.
 *
 * @internal bench tooling
 */
final readonly class Goal
{
    public function __construct(
        public string $goal,
        public string $measured,
        public ?bool $met,
    ) {}

    /** @return array<string, mixed> */
    public function toArray(): array
    {
        /** @var array<string, mixed> */
        return get_object_vars($this);
    }
}
