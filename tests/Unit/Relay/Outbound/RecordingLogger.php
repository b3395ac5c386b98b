<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Outbound;

use Psr\Log\AbstractLogger;

final class RecordingLogger extends AbstractLogger
{
    /** @var list<array{string, string, array<mixed>}> level, message, context */
    public array $records = [];

    /** @param array<mixed> $context */
    public function log($level, string|\Stringable $message, array $context = []): void
    {
        $this->records[] = [\is_scalar($level) ? (string) $level : '', (string) $message, $context];
    }
}
