<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Wire;

/**
 * The parsed head of a request still arriving: enough to decide on 100-continue, 413 or 411
 * before its body has been read.
 *
 * @internal
 */
final readonly class RequestHead
{
    /** @param list<array{string, string}> $headers */
    public function __construct(
        public string $method,
        public string $target,
        public array $headers,
        public int $length,
        public bool $http10,
        public ?int $contentLength,
        public bool $chunked,
    ) {}

    public function header(string $name): ?string
    {
        foreach ($this->headers as [$key, $value]) {
            if (strcasecmp($key, $name) === 0) {
                return $value;
            }
        }

        return null;
    }

    public function expectsContinue(): bool
    {
        foreach ($this->headers as [$name, $value]) {
            if (strcasecmp($name, 'Expect') === 0 && strcasecmp(trim($value), '100-continue') === 0) {
                return true;
            }
        }

        return false;
    }
}
