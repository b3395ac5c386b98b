<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bridge\Parity;

/**
 * One handler's run of a parity case: what reached the origin and what the caller saw.
 */
final class Side
{
    /** @param list<Received> $received */
    public function __construct(
        public readonly string $handler,
        public readonly array $received,
        public readonly Seen $seen,
        public readonly int $port,
        public readonly float $seconds,
    ) {}

    /**
     * The compared form: 'received' => list of requests, 'seen' => facts; nested keys flattened
     * to dotted paths by ParityResult for ignoring.
     *
     * @return array{received: list<array<string, mixed>>, seen: array<string, mixed>}
     */
    public function toArray(): array
    {
        return [
            'received' => array_map(fn(Received $r): array => $r->compared($this->port), $this->received),
            'seen' => $this->seen->facts,
        ];
    }
}
