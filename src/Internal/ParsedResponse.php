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

    /**
     * Plain properties, not native readonly ones: one response is made per request, and PHP
     * 8.2 writes native readonly properties on the VM's slow path (~1 k instructions here).
     *
     * @param list<string>|string $headerLines "Name: value" lines, or the head's field block ("Name: value\r\n...")
     */
    public function __construct(
        private int $status,
        private string $reason,
        private string $protocol,
        private array|string $headerLines,
        private StreamInterface $body,
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
        $lines = \is_array($this->headerLines) ? $this->headerLines : ($this->headerLines === '' ? [] : explode("\r\n", $this->headerLines));
        foreach ($lines as $line) {
            $colon = (int) strpos($line, ':');
            $name = substr($line, 0, $colon);
            $key = $this->names[strtolower($name)] ??= $name;
            $headers[$key][] = trim(substr($line, $colon + 1), " \t");
        }

        return $headers;
    }
}
