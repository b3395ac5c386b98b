<?php

declare(strict_types=1);

namespace WarmHttp\Relay;

use Psr\Log\AbstractLogger;

/**
 * One JSON object per line on stderr, as journald, Docker and log shippers expect.
 *
 * @internal
 */
final class JsonLogger extends AbstractLogger
{
    /** @var resource */
    private $stream;

    /** @param resource|null $stream */
    public function __construct($stream = null)
    {
        $this->stream = $stream ?? \STDERR;
    }

    /** @param array<mixed> $context */
    public function log($level, string|\Stringable $message, array $context = []): void
    {
        $line = ['time' => (new \DateTimeImmutable())->format('Y-m-d\TH:i:s.uP'), 'level' => \is_scalar($level) ? (string) $level : 'info', 'msg' => (string) $message] + $context;
        fwrite($this->stream, json_encode($line, \JSON_UNESCAPED_SLASHES | \JSON_PARTIAL_OUTPUT_ON_ERROR | \JSON_INVALID_UTF8_SUBSTITUTE) . "\n");
    }
}
