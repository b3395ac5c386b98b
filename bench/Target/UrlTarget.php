<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Target;

/**
 * The user's endpoint: the same URL every time, nothing counted on the wire (the WarmHttp rows
 * report the pool's own counters instead).
 *
 * @internal bench tooling
 */
final class UrlTarget implements Target
{
    public function __construct(private readonly string $url) {}

    public function urls(int $count, string $path, string $tag): array
    {
        return array_fill(0, $count, $this->url);
    }

    public function connections(): ?int
    {
        return null;
    }

    public function handshakes(string $tag, int $requests): ?array
    {
        return null;
    }

    public function close(): void {}
}
