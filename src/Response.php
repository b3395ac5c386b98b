<?php

declare(strict_types=1);

namespace WarmHttp;

use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\StreamInterface;

/**
 * A PSR-7 response that also tells how it was fetched: `$response->stats()`.
 * Every with*() keeps the stats, so middleware that rewrites headers does not lose them.
 */
final class Response implements ResponseInterface
{
    private ?TransferStats $stats = null;

    /** @param array<string, mixed> $curlInfo */
    public function __construct(private ResponseInterface $inner, private readonly array $curlInfo) {}

    public function stats(): TransferStats
    {
        return $this->stats ??= TransferStats::fromCurlInfo($this->curlInfo);
    }

    public function getProtocolVersion(): string
    {
        return $this->inner->getProtocolVersion();
    }

    public function withProtocolVersion(string $version): static
    {
        return $this->with($this->inner->withProtocolVersion($version));
    }

    public function getHeaders(): array
    {
        return $this->inner->getHeaders();
    }

    public function hasHeader(string $name): bool
    {
        return $this->inner->hasHeader($name);
    }

    public function getHeader(string $name): array
    {
        return $this->inner->getHeader($name);
    }

    public function getHeaderLine(string $name): string
    {
        return $this->inner->getHeaderLine($name);
    }

    public function withHeader(string $name, $value): static
    {
        return $this->with($this->inner->withHeader($name, $value));
    }

    public function withAddedHeader(string $name, $value): static
    {
        return $this->with($this->inner->withAddedHeader($name, $value));
    }

    public function withoutHeader(string $name): static
    {
        return $this->with($this->inner->withoutHeader($name));
    }

    public function getBody(): StreamInterface
    {
        return $this->inner->getBody();
    }

    public function withBody(StreamInterface $body): static
    {
        return $this->with($this->inner->withBody($body));
    }

    public function getStatusCode(): int
    {
        return $this->inner->getStatusCode();
    }

    public function withStatus(int $code, string $reasonPhrase = ''): static
    {
        return $this->with($this->inner->withStatus($code, $reasonPhrase));
    }

    public function getReasonPhrase(): string
    {
        return $this->inner->getReasonPhrase();
    }

    private function with(ResponseInterface $inner): static
    {
        $copy = clone $this;
        $copy->inner = $inner;

        return $copy;
    }
}
