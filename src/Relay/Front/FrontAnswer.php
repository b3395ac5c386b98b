<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Front;

use WarmHttp\Relay\Wire\WireResponse;

/**
 * The front's own refusals that WireResponse::relayError cannot render: statuses whose reason
 * phrase it lacks (408, 429), extra headers (Retry-After).
 *
 * @internal
 */
final class FrontAnswer
{
    /** @param list<array{string, string}> $headers */
    public static function error(int $status, string $message, bool $close, array $headers = []): string
    {
        $reason = match ($status) {
            408 => 'Request Timeout',
            429 => 'Too Many Requests',
            default => '',
        };

        return WireResponse::render($status, $message . "\n", [
            ['Content-Type', 'text/plain; charset=utf-8'],
            ['X-WarmHttp-Error', str_replace(["\r", "\n"], ' ', substr($message, 0, 200))],
            ...$headers,
        ], $close, $reason);
    }
}
