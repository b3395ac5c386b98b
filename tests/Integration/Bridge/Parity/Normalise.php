<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bridge\Parity;

/**
 * The only differences the parity suite forgives, each for a reason that is not behaviour:
 * - the origin's port is written `{port}` (the two sides may run against different origins);
 * - the User-Agent value is `{user-agent}` (both go through Guzzle's Client, which sets it; a
 *   request's own User-Agent is kept as sent when it is not Guzzle's default);
 * - a response's Date value is `{date}` (the clock moves between the two sends);
 * - in exception messages, elapsed times ("after 1001 milliseconds") are `after {ms} milliseconds`;
 * - a multipart body's boundary (random per request, chosen by Guzzle's Client) is `{boundary}`,
 *   in the Content-Type header and in the body.
 * Anything else that differs is a difference.
 */
final class Normalise
{
    public static function text(string $text, int $port): string
    {
        $text = str_replace(['127.0.0.1:' . $port, 'localhost:' . $port, '[::1]:' . $port], ['127.0.0.1:{port}', 'localhost:{port}', '[::1]:{port}'], $text);

        return (string) preg_replace('/after \d+ (milliseconds|ms)/', 'after {ms} $1', $text);
    }

    public static function requestHeader(string $line, int $port): string
    {
        if (preg_match('/^User-Agent:\s*GuzzleHttp\//i', $line) === 1) {
            return 'User-Agent: {user-agent}';
        }

        return self::text($line, $port);
    }

    /**
     * A request's header lines and body with its multipart boundary written `{boundary}`.
     *
     * @param list<string> $headers
     *
     * @return array{list<string>, string}
     */
    public static function multipart(array $headers, string $body): array
    {
        foreach ($headers as $line) {
            if (preg_match('/^Content-Type:\s*multipart\/[^;]+;.*boundary="?([^";\s]+)/i', $line, $m) === 1) {
                return [array_map(static fn(string $l): string => str_replace($m[1], '{boundary}', $l), $headers), str_replace($m[1], '{boundary}', $body)];
            }
        }

        return [$headers, $body];
    }

    /**
     * @param array<array<string>> $headers
     *
     * @return array<array<string>>
     */
    public static function responseHeaders(array $headers): array
    {
        foreach ($headers as $name => $values) {
            if (strcasecmp($name, 'Date') === 0) {
                $headers[$name] = array_map(static fn(): string => '{date}', $values);
            }
        }

        return $headers;
    }
}
