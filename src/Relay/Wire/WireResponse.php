<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Wire;

/**
 * Renders the relay's HTTP/1.1 answers on its socket.
 *
 * @internal
 */
final class WireResponse
{
    private const REASONS = [
        100 => 'Continue', 200 => 'OK', 202 => 'Accepted', 400 => 'Bad Request', 401 => 'Unauthorized',
        403 => 'Forbidden', 404 => 'Not Found', 405 => 'Method Not Allowed', 408 => 'Request Timeout', 411 => 'Length Required',
        413 => 'Content Too Large', 429 => 'Too Many Requests', 431 => 'Request Header Fields Too Large', 500 => 'Internal Server Error',
        502 => 'Bad Gateway', 503 => 'Service Unavailable', 504 => 'Gateway Timeout', 507 => 'Insufficient Storage',
    ];

    /** @param list<array{string, string}> $headers */
    public static function render(int $status, string $body, array $headers = [], bool $close = false, string $reason = ''): string
    {
        $framing = [['Content-Length', (string) \strlen($body)], ...($close ? [['Connection', 'close']] : [])];

        return self::head($status, $headers, $reason, $framing) . $body;
    }

    /**
     * A status line and headers, the blank line included; the body (if any) follows separately.
     *
     * @param list<array{string, string}> $headers
     * @param list<array{string, string}> $framing how the body is delimited, written last
     */
    public static function head(int $status, array $headers, string $reason, array $framing): string
    {
        $block = '';
        foreach ($headers as [$name, $value]) {
            $block .= $name . ': ' . $value . "\r\n";
        }

        return self::headWith($status, $block, $reason, $framing);
    }

    /**
     * head() with the header lines written out already ("Name: value\r\n" each, AnswerHead).
     *
     * @param list<array{string, string}> $framing how the body is delimited, written last
     */
    public static function headWith(int $status, string $block, string $reason, array $framing): string
    {
        // A reason that could end the status line is never written (ResponseParser refuses it
        // upstream already): the standard one stands in.
        $usable = $reason !== '' && strpbrk($reason, "\r\n\0") === false;
        // Concatenated, not sprintf'd: one per sync answer.
        $head = 'HTTP/1.1 ' . $status . ' ' . ($usable ? $reason : (self::REASONS[$status] ?? 'Status')) . "\r\n" . $block;
        foreach ($framing as [$name, $value]) {
            $head .= $name . ': ' . $value . "\r\n";
        }

        return $head . "\r\n";
    }

    /**
     * An answer from the relay itself (not the destination), with a one-line reason.
     *
     * @param list<array{string, string}> $headers more lines, e.g. Retry-After
     */
    public static function relayError(int $status, string $message, bool $close = false, array $headers = []): string
    {
        return self::render($status, $message . "\n", [
            ['Content-Type', 'text/plain; charset=utf-8'],
            ['X-WarmHttp-Error', str_replace(["\r", "\n"], ' ', substr($message, 0, 200))],
            ...$headers,
        ], $close);
    }

    /** @param string $id where the journal holds it, segment-offset */
    public static function accepted(string $id, string $idempotencyKey): string
    {
        // render()'s bytes, written out: one per dispatch, 7.8 k instructions through render().
        return "HTTP/1.1 202 Accepted\r\nX-WarmHttp-Id: {$id}\r\nIdempotency-Key: {$idempotencyKey}\r\nContent-Length: 0\r\n\r\n";
    }
}
