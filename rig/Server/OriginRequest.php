<?php

declare(strict_types=1);

namespace WarmHttp\Rig\Server;

/**
 * One parsed HTTP/1.x request (head and Content-Length body) as the raw origin saw it.
 *
 * @internal test/bench tooling
 */
final class OriginRequest
{
    /**
     * @param array<string, string> $query
     * @param array<string, string> $headers lower-cased names
     */
    public function __construct(
        public readonly string $method,
        public readonly string $target,
        public readonly string $path,
        public readonly array $query,
        public readonly array $headers,
        public readonly string $head,
        public readonly string $body,
    ) {}

    /**
     * Takes one complete request off the front of $buffer, or returns null when more bytes are needed.
     */
    public static function shift(string &$buffer): ?self
    {
        $end = strpos($buffer, "\r\n\r\n");
        if ($end === false) {
            return null;
        }
        $head = substr($buffer, 0, $end + 4);
        $lines = explode("\r\n", substr($buffer, 0, $end));
        $headers = self::headers(\array_slice($lines, 1));
        $length = (int) ($headers['content-length'] ?? 0);
        if (\strlen($buffer) < $end + 4 + $length) {
            return null;
        }
        $body = substr($buffer, $end + 4, $length);
        $buffer = substr($buffer, $end + 4 + $length);
        [$method, $target] = explode(' ', $lines[0] . '  ', 3);
        $path = (string) parse_url($target, \PHP_URL_PATH);
        parse_str((string) parse_url($target, \PHP_URL_QUERY), $query);

        return new self($method, $target, $path, self::strings($query), $headers, $head, $body);
    }

    /**
     * @param array<mixed> $query
     *
     * @return array<string, string>
     */
    private static function strings(array $query): array
    {
        $strings = [];
        foreach ($query as $name => $value) {
            $strings[(string) $name] = \is_string($value) ? $value : '';
        }

        return $strings;
    }

    public function query(string $name, string $default = ''): string
    {
        return $this->query[$name] ?? $default;
    }

    /**
     * @param list<string> $lines
     *
     * @return array<string, string>
     */
    private static function headers(array $lines): array
    {
        $headers = [];
        foreach ($lines as $line) {
            $colon = strpos($line, ':');
            if ($colon !== false) {
                $headers[strtolower(trim(substr($line, 0, $colon)))] = trim(substr($line, $colon + 1));
            }
        }

        return $headers;
    }
}
