<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use Psr\Log\AbstractLogger;

/**
 * The bench client's logger. dispatch() never fails: when the relay does not take a request it
 * logs a warning and queues the send for shutdown, which would time a queue append instead of a
 * hand-off. The bench counts those warnings and refuses to report such a number.
 *
 * @internal benchmark tooling
 */
final class HandOffWatch extends AbstractLogger
{
    private int $fallbacks = 0;
    private string $lastReason = '';

    /** @param array<mixed> $context */
    public function log($level, string|\Stringable $message, array $context = []): void
    {
        if (str_contains((string) $message, 'hand-off failed')) {
            ++$this->fallbacks;
            $this->lastReason = \is_string($context['reason'] ?? null) ? $context['reason'] : (string) $message;
        }
    }

    /** @throws \RuntimeException when any hand-off fell back */
    public function assertNoFallback(int $dispatches): void
    {
        if ($this->fallbacks > 0) {
            throw new \RuntimeException(\sprintf('%d of %d dispatches did not reach the relay and fell back to a send at shutdown (last reason: %s).', $this->fallbacks, $dispatches, $this->lastReason));
        }
    }
}
