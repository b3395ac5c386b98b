<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bridge\Parity;

/**
 * One request as EchoOrigin read it off the socket: the request line, the header lines in
 * order as sent, the body (de-chunked; `chunked` says how it was framed).
 */
final class Received
{
    /** @param list<string> $headers */
    public function __construct(
        public readonly int $connection,
        public readonly string $line,
        public readonly array $headers,
        public readonly string $body,
        public readonly bool $chunked,
        public readonly float $at,
    ) {}

    /** @param array<mixed> $json a line of received.jsonl */
    public static function fromJson(array $json): self
    {
        $headers = [];
        foreach (\is_array($json['headers'] ?? null) ? $json['headers'] : [] as $line) {
            $headers[] = \is_string($line) ? $line : '';
        }
        $body = \is_string($json['body'] ?? null) ? base64_decode($json['body'], true) : '';

        return new self(
            \is_int($json['connection'] ?? null) ? $json['connection'] : 0,
            \is_string($json['line'] ?? null) ? $json['line'] : '',
            $headers,
            \is_string($body) ? $body : '',
            ($json['chunked'] ?? false) === true,
            \is_float($json['at'] ?? null) ? $json['at'] : 0.0,
        );
    }

    /** The value of the first header named $name, or null. */
    public function header(string $name): ?string
    {
        foreach ($this->headers as $line) {
            [$n, $v] = explode(':', $line, 2) + [1 => ''];
            if (strcasecmp(trim($n), $name) === 0) {
                return trim($v);
            }
        }

        return null;
    }

    /**
     * What the parity suite compares: line, header lines and body, normalised (Normalise).
     *
     * @return array{line: string, headers: list<string>, body: string, chunked: bool}
     */
    public function compared(int $port): array
    {
        [$headers, $body] = Normalise::multipart($this->headers, $this->body);

        return [
            'line' => Normalise::text($this->line, $port),
            'headers' => array_map(static fn(string $l): string => Normalise::requestHeader($l, $port), $headers),
            'body' => $body,
            'chunked' => $this->chunked,
        ];
    }
}
