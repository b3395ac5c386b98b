<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Target;

/**
 * The origins of one run.
 *
 * @internal bench tooling
 */
interface Target
{
    /**
     * @return list<string> $count URLs for $path, spread over the origins, tagged with $tag
     *                      where the target can count per tag
     */
    public function urls(int $count, string $path, string $tag): array;

    /** Connections opened since open(), or null when not observable. */
    public function connections(): ?int;

    /**
     * TLS handshakes of the connections that served $tag, as [full, resumed], or null.
     *
     * @return array{int, int}|null
     */
    public function handshakes(string $tag, int $requests): ?array;

    public function close(): void;
}
