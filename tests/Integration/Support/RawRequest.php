<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Support;

use Nyholm\Psr7\Request;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\StreamInterface;
use Psr\Http\Message\UriInterface;

/**
 * A PSR-7 request that lets anything through, as a careless implementation would: nyholm
 * refuses CR/LF at withHeader(), so only a hand-rolled message can show the client's own guard.
 */
final class RawRequest implements RequestInterface
{
    /** @param array<string, list<string>> $headers */
    public function __construct(private string $method, private Request $inner, private array $headers = []) {}

    public function getRequestTarget(): string
    {
        return $this->inner->getRequestTarget();
    }

    public function withRequestTarget(string $requestTarget): RequestInterface
    {
        return $this;
    }

    public function getMethod(): string
    {
        return $this->method;
    }

    public function withMethod(string $method): RequestInterface
    {
        return $this;
    }

    public function getUri(): UriInterface
    {
        return $this->inner->getUri();
    }

    public function withUri(UriInterface $uri, bool $preserveHost = false): RequestInterface
    {
        return $this;
    }

    public function getProtocolVersion(): string
    {
        return '1.1';
    }

    public function withProtocolVersion(string $version): RequestInterface
    {
        return $this;
    }

    public function getHeaders(): array
    {
        return $this->headers + $this->inner->getHeaders();
    }

    public function hasHeader(string $name): bool
    {
        return isset($this->getHeaders()[$name]);
    }

    public function getHeader(string $name): array
    {
        return $this->getHeaders()[$name] ?? [];
    }

    public function getHeaderLine(string $name): string
    {
        return implode(', ', $this->getHeader($name));
    }

    public function withHeader(string $name, $value): RequestInterface
    {
        $copy = clone $this;
        $copy->headers[$name] = array_values(array_map(strval(...), (array) $value));

        return $copy;
    }

    public function withAddedHeader(string $name, $value): RequestInterface
    {
        return $this->withHeader($name, $value);
    }

    public function withoutHeader(string $name): RequestInterface
    {
        return $this;
    }

    public function getBody(): StreamInterface
    {
        return $this->inner->getBody();
    }

    public function withBody(StreamInterface $body): RequestInterface
    {
        return $this;
    }
}
