<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

use Psr\Log\AbstractLogger;

/**
 * The logger when none is given (`logger` option): one line per event through error_log(),
 * which PHP-FPM and the CLI both send somewhere an operator looks.
 *
 * @internal
 */
final class ErrorLogLogger extends AbstractLogger
{
    /** @param array<mixed> $context */
    public function log($level, string|\Stringable $message, array $context = []): void
    {
        $level = \is_scalar($level) ? (string) $level : 'info';
        $json = $context === [] ? '' : ' ' . json_encode($context, \JSON_UNESCAPED_SLASHES | \JSON_PARTIAL_OUTPUT_ON_ERROR);
        error_log(\sprintf('[warmhttp] %s: %s%s', $level, $message, $json));
    }
}
