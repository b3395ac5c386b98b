<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use Psr\Log\AbstractLogger;

final class MemoryLogger extends AbstractLogger
{
    /** @var list<array{string, string, array<mixed>}> */
    public array $records = [];

    /** @param array<mixed> $context */
    public function log($level, string|\Stringable $message, array $context = []): void
    {
        $this->records[] = [\is_scalar($level) ? (string) $level : '', (string) $message, $context];
    }

    /** @return list<array<mixed>> contexts of records whose message starts with $prefix */
    public function contexts(string $prefix): array
    {
        return array_values(array_map(
            static fn(array $r): array => $r[2],
            array_filter($this->records, static fn(array $r): bool => str_starts_with($r[1], $prefix)),
        ));
    }
}
