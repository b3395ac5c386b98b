<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bridge\Parity;

/**
 * A scripted answer for EchoOrigin: the head and body as exact bytes, sent in timed parts.
 * `Answer::status(200, ['X-A: 1'], 'body')` adds Content-Length unless the head lines already
 * frame the body; `raw()` sends bytes as given (malformed heads, bad status codes).
 */
final class Answer
{
    /** @param list<array{int|float, string, string}> $parts delay ms, bytes, 'head'|'body'|'close' */
    private function __construct(private readonly array $parts) {}

    /** @param list<string> $headers raw header lines, in order */
    public static function status(int $status, array $headers = [], string $body = '', string $reason = 'OK', string $version = '1.1'): self
    {
        if (!self::framed($headers)) {
            $headers[] = 'Content-Length: ' . \strlen($body);
        }
        $head = \sprintf("HTTP/%s %d %s\r\n%s\r\n", $version, $status, $reason, implode('', array_map(static fn(string $l): string => $l . "\r\n", $headers)));

        return new self([[0, $head, 'head'], [0, $body, 'body']]);
    }

    /** Bytes as given, head and body together (HEAD requests get them all too). */
    public static function raw(string $bytes): self
    {
        return new self([[0, $bytes, 'head']]);
    }

    /** The head waits $ms after the request was read. */
    public function delayed(int $ms): self
    {
        $parts = $this->parts;
        $parts[0] = [$parts[0][0] + $ms, $parts[0][1], $parts[0][2]];

        return new self($parts);
    }

    /** The body's first $bytes go out with the head, the rest $ms later. */
    public function stallBody(int $bytes, int $ms): self
    {
        $parts = [];
        foreach ($this->parts as $part) {
            if ($part[2] === 'body' && \strlen($part[1]) > $bytes) {
                $parts[] = [$part[0], substr($part[1], 0, $bytes), 'body'];
                $parts[] = [$ms, substr($part[1], $bytes), 'body'];

                continue;
            }
            $parts[] = $part;
        }

        return new self($parts);
    }

    /** The connection closes after the answer (or $ms later). */
    public function closing(int $ms = 0): self
    {
        return new self([...$this->parts, [$ms, '', 'close']]);
    }

    /** @return list<array{int|float, string, string}> for script.json, bytes in base64 */
    public function toScript(): array
    {
        return array_map(static fn(array $p): array => [$p[0], base64_encode($p[1]), $p[2]], $this->parts);
    }

    /** @param list<string> $headers */
    private static function framed(array $headers): bool
    {
        foreach ($headers as $line) {
            if (preg_match('/^(content-length|transfer-encoding)\s*:/i', $line) === 1) {
                return true;
            }
        }

        return false;
    }
}
