<?php

declare(strict_types=1);

namespace WarmHttp;

use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\StreamInterface;
use WarmHttp\Internal\ParsedResponse;

/**
 * A PSR-7 response that also tells how it was fetched: `$response->stats()`.
 * Every with*() keeps the stats, so middleware that rewrites headers does not lose them.
 */
final class Response implements ResponseInterface
{
    private ?TransferStats $stats = null;

    /**
     * @internal
     *
     * $curlInfo is a plain property, not a native readonly one: PHP 8.2 writes those on its slow path.
     *
     * @param array<string, mixed> $curlInfo
     */
    public function __construct(private ResponseInterface|ParsedResponse $inner, private array $curlInfo) {}

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
        return $this->with($this->psr7()->withProtocolVersion($version));
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
        return $this->with($this->psr7()->withHeader($name, $value));
    }

    public function withAddedHeader(string $name, $value): static
    {
        return $this->with($this->psr7()->withAddedHeader($name, $value));
    }

    public function withoutHeader(string $name): static
    {
        return $this->with($this->psr7()->withoutHeader($name));
    }

    public function getBody(): StreamInterface
    {
        return $this->inner->getBody();
    }

    public function withBody(StreamInterface $body): static
    {
        return $this->with($this->psr7()->withBody($body));
    }

    public function getStatusCode(): int
    {
        return $this->inner->getStatusCode();
    }

    public function withStatus(int $code, string $reasonPhrase = ''): static
    {
        return $this->with($this->psr7()->withStatus($code, $reasonPhrase));
    }

    public function getReasonPhrase(): string
    {
        return $this->inner->getReasonPhrase();
    }

    private function psr7(): ResponseInterface
    {
        return $this->inner instanceof ParsedResponse ? $this->inner->toPsr7() : $this->inner;
    }

    private function with(ResponseInterface $inner): static
    {
        $copy = clone $this;
        $copy->inner = $inner;

        return $copy;
    }
}
