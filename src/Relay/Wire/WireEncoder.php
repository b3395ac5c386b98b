<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Wire;

use Psr\Http\Message\RequestInterface;

/**
 * Writes a request in the relay's wire form: HTTP/1.1, absolute-form target, exactly one
 * X-WarmHttp-Mode (the client's) and the client's token. Any X-WarmHttp-* header the caller set
 * on the request is dropped, not refused: they are the relay's control headers, never forwarded
 * to a destination anyway, and a caller's "X-WarmHttp-Mode: async" on a sendRequest() through
 * relay_sync made the relay answer 202, which then passed for the destination's answer.
 *
 * @internal
 */
final class WireEncoder
{
    /** Set by the encoder itself, or by curl: never taken from the caller. */
    private const REPLACED = ['host' => true, 'content-length' => true, 'transfer-encoding' => true, 'connection' => true];

    public static function encode(RequestInterface $request, string $mode, ?string $token): string
    {
        $uri = $request->getUri();
        $body = $request->getBody();
        if ($body->isSeekable()) {
            $body->rewind();
        }
        $content = $body->getContents();
        $port = $uri->getPort();
        $head = \sprintf("%s %s HTTP/1.1\r\nHost: %s\r\nX-WarmHttp-Mode: %s\r\n", $request->getMethod(), $uri->withFragment(''), $port === null ? $uri->getHost() : $uri->getHost() . ':' . $port, $mode);
        if ($token !== null) {
            $head .= 'X-WarmHttp-Token: ' . $token . "\r\n";
        }
        foreach ($request->getHeaders() as $name => $values) {
            $lower = strtolower((string) $name);
            // Inline, not isControl(): this loop is on the hand-off's hot path.
            if (isset(self::REPLACED[$lower]) || strncmp($lower, 'x-warmhttp-', 11) === 0) {
                continue;
            }
            foreach ($values as $value) {
                $head .= $name . ': ' . $value . "\r\n";
            }
        }

        return $head . 'Content-Length: ' . \strlen($content) . "\r\n\r\n" . $content;
    }

    /**
     * The same from a request's parts (a fallback journal entry handed to the relay again).
     *
     * @param list<array{string, string}> $headers
     */
    public static function encodeParts(string $method, string $uri, array $headers, string $body, string $mode, ?string $token): string
    {
        $parts = parse_url($uri);
        $head = self::head($method, $uri, self::hostOf(\is_array($parts) ? ($parts['host'] ?? '') : '', \is_array($parts) ? ($parts['port'] ?? null) : null), $mode, $token);
        foreach ($headers as [$name, $value]) {
            if (!self::isControl($name)) {
                $head .= $name . ': ' . $value . "\r\n";
            }
        }

        return $head . 'Content-Length: ' . \strlen($body) . "\r\n\r\n" . $body;
    }

    /** A header only the client (or curl) may set on the relay's wire. */
    public static function isControl(string $name): bool
    {
        $lower = strtolower($name);

        return isset(self::REPLACED[$lower]) || str_starts_with($lower, 'x-warmhttp-');
    }

    /** Host and port, never the URI's user info (the authority would carry it). */
    private static function hostOf(string $host, ?int $port): string
    {
        return $port !== null ? $host . ':' . $port : $host;
    }

    private static function head(string $method, string $target, string $host, string $mode, ?string $token): string
    {
        $head = \sprintf("%s %s HTTP/1.1\r\nHost: %s\r\nX-WarmHttp-Mode: %s\r\n", $method, $target, $host, $mode);

        return $token !== null ? $head . 'X-WarmHttp-Token: ' . $token . "\r\n" : $head;
    }
}
