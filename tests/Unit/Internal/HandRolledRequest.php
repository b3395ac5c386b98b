<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Internal;

use Nyholm\Psr7\Stream;
use Nyholm\Psr7\Uri;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\StreamInterface;
use Psr\Http\Message\UriInterface;

/**
 * A PSR-7 request that validates nothing, as a hand-rolled implementation might: it can carry
 * header names and values that nyholm refuses, which is what RequestGuard exists for.
 */
final class HandRolledRequest implements RequestInterface
{
    /** @param array<string, list<string>> $headers */
    public function __construct(private readonly array $headers, private readonly string $method = 'GET', private readonly string $uri = 'https://a.example/') {}

    public function getProtocolVersion(): string
    {
        return '1.1';
    }

    public function withProtocolVersion(string $version): RequestInterface
    {
        throw new \LogicException('Not needed by the tests.');
    }

    /** @return array<string, list<string>> */
    public function getHeaders(): array
    {
        return $this->headers;
    }

    public function hasHeader(string $name): bool
    {
        return $this->getHeader($name) !== [];
    }

    /** @return list<string> */
    public function getHeader(string $name): array
    {
        foreach ($this->headers as $key => $values) {
            if (strcasecmp($key, $name) === 0) {
                return $values;
            }
        }

        return [];
    }

    public function getHeaderLine(string $name): string
    {
        return implode(', ', $this->getHeader($name));
    }

    public function withHeader(string $name, $value): RequestInterface
    {
        throw new \LogicException('Not needed by the tests.');
    }

    public function withAddedHeader(string $name, $value): RequestInterface
    {
        throw new \LogicException('Not needed by the tests.');
    }

    public function withoutHeader(string $name): RequestInterface
    {
        throw new \LogicException('Not needed by the tests.');
    }

    public function getBody(): StreamInterface
    {
        return Stream::create('');
    }

    public function withBody(StreamInterface $body): RequestInterface
    {
        throw new \LogicException('Not needed by the tests.');
    }

    public function getRequestTarget(): string
    {
        return '/';
    }

    public function withRequestTarget(string $requestTarget): RequestInterface
    {
        throw new \LogicException('Not needed by the tests.');
    }

    public function getMethod(): string
    {
        return $this->method;
    }

    public function withMethod(string $method): RequestInterface
    {
        throw new \LogicException('Not needed by the tests.');
    }

    public function getUri(): UriInterface
    {
        return new Uri($this->uri);
    }

    public function withUri(UriInterface $uri, bool $preserveHost = false): RequestInterface
    {
        throw new \LogicException('Not needed by the tests.');
    }
}
