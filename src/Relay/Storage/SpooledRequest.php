<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Storage;

/**
 * A request as the spool holds it. The id is 0 until it has been stored.
 *
 * @internal
 */
final readonly class SpooledRequest
{
    /** @param list<array{string, string}> $headers without hop-by-hop and X-WarmHttp-* */
    public function __construct(
        public int $id,
        public string $method,
        public string $uri,
        public array $headers,
        public string $body,
        public string $idempotencyKey,
        public int $attempts,
        public float $createdAt,
    ) {}

    public function withId(int $id): self
    {
        return new self($id, $this->method, $this->uri, $this->headers, $this->body, $this->idempotencyKey, $this->attempts, $this->createdAt);
    }

    /**
     * The same request as the spool first holds it: its age and first due time counted on the
     * delivery worker's clock (SpoolClock), not the front's wall clock of its acceptance.
     */
    public function takenInAt(float $now): self
    {
        return new self($this->id, $this->method, $this->uri, $this->headers, $this->body, $this->idempotencyKey, $this->attempts, $now);
    }

    /** scheme://host:port, the unit of the per-host concurrency cap. */
    public function origin(): string
    {
        $parts = parse_url($this->uri);
        $scheme = strtolower((string) ($parts['scheme'] ?? 'http'));

        return \sprintf('%s://%s:%d', $scheme, strtolower((string) ($parts['host'] ?? '')), $parts['port'] ?? ($scheme === 'https' ? 443 : 80));
    }
}
