<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Wire;

/**
 * One HTTP/1.1 request as it arrived on the relay's socket: an absolute-form target
 * (`POST https://api.example.com/x HTTP/1.1`) or, for the relay's own endpoints, origin-form.
 *
 * @internal
 */
final readonly class WireRequest
{
    /** @param list<array{string, string}> $headers name, value; in arrival order */
    public function __construct(
        public string $method,
        public string $target,
        public array $headers,
        public string $body,
        public bool $http10 = false,
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

    /** `X-WarmHttp-Mode`: async (spool, 202, deliver later) unless the caller asks for sync. */
    public function mode(): string
    {
        return strtolower(trim($this->header('X-WarmHttp-Mode') ?? 'async'));
    }

    public function keepAlive(): bool
    {
        $connection = strtolower($this->header('Connection') ?? '');

        return $this->http10 ? str_contains($connection, 'keep-alive') : !str_contains($connection, 'close');
    }

    public function isAbsoluteForm(): bool
    {
        return preg_match('#^https?://#i', $this->target) === 1;
    }
}
