<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

use Nyholm\Psr7\Response as Psr7Response;
use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\StreamInterface;

/**
 * A response as curl delivered it, read lazily: headers are split into arrays only when first
 * asked for. Building a validated nyholm Response for every reply cost about 4 µs of a warm
 * request (measured with excimer); most callers read the status and the body only. The head
 * was checked by ResponseParser, so what is read here is valid. WarmHttp\Response reads
 * through this and, on the first with*(), switches to toPsr7(): nyholm then validates and
 * carries PSR-7's immutability.
 *
 * @internal
 */
final class ParsedResponse
{
    /** @var array<string, list<string>>|null */
    private ?array $headers = null;

    /** @var array<string, string> lower-case name => name as received */
    private array $names = [];

    /** @param list<string> $headerLines "Name: value" */
    public function __construct(
        private readonly int $status,
        private readonly string $reason,
        private readonly string $protocol,
        private readonly array $headerLines,
        private readonly StreamInterface $body,
    ) {}

    public function getProtocolVersion(): string
    {
        return $this->protocol;
    }


    /** @return array<string, list<string>> */
    public function getHeaders(): array
    {
        return $this->headers ??= $this->parseHeaders();
    }

    public function hasHeader(string $name): bool
    {
        $this->getHeaders();

        return isset($this->names[strtolower($name)]);
    }

    /** @return list<string> */
    public function getHeader(string $name): array
    {
        $headers = $this->getHeaders();
        $key = $this->names[strtolower($name)] ?? null;

        return $key === null ? [] : $headers[$key];
    }

    public function getHeaderLine(string $name): string
    {
        return implode(', ', $this->getHeader($name));
    }




    public function getBody(): StreamInterface
    {
        return $this->body;
    }


    public function getStatusCode(): int
    {
        return $this->status;
    }


    public function getReasonPhrase(): string
    {
        return $this->reason;
    }

    /** A validated nyholm response with the same parts, for the first with*(). */
    public function toPsr7(): ResponseInterface
    {
        return new Psr7Response($this->status, $this->getHeaders(), $this->body, $this->protocol, $this->reason);
    }

    /** @return array<string, list<string>> */
    private function parseHeaders(): array
    {
        $headers = [];
        foreach ($this->headerLines as $line) {
            $colon = (int) strpos($line, ':');
            $name = substr($line, 0, $colon);
            $key = $this->names[strtolower($name)] ??= $name;
            $headers[$key][] = trim(substr($line, $colon + 1), " \t");
        }

        return $headers;
    }
}
