<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

/**
 * What the pool needs to know of one transfer, and nothing of PSR-7: the Client builds one
 * from a PSR-7 request, the relay straight from the bytes it received.
 *
 * @internal
 */
final readonly class TransferSpec
{
    /**
     * @param string            $url         absolute, without fragment
     * @param string            $origin      scheme://host:port, the key its connections share
     * @param bool              $resendable  safe to send twice (RFC 9110 9.2.2, or an Idempotency-Key):
     *                                       may be retried on a fresh connection when a reused one was dead
     * @param array<int, mixed> $curlOptions
     */
    public function __construct(
        public string $method,
        public string $url,
        public string $origin,
        public bool $resendable,
        public array $curlOptions,
        public ResponseSink $sink = ResponseSink::Buffered,
        public ?int $maxResponseBytes = null,
    ) {}

    /** @param array<int, mixed> $curlOptions */
    public static function of(string $method, string $url, bool $resendable, array $curlOptions, ResponseSink $sink = ResponseSink::Buffered, ?int $maxResponseBytes = null): self
    {
        return new self($method, $url, self::originOf($url), $resendable, $curlOptions, $sink, $maxResponseBytes);
    }

    /** GET, HEAD, OPTIONS, PUT, DELETE, TRACE, or anything with an Idempotency-Key (RFC 9110 9.2.2). */
    public static function isSafeToResend(string $method, bool $hasIdempotencyKey): bool
    {
        return $hasIdempotencyKey || \in_array($method, ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE'], true);
    }

    public static function originOf(string $url): string
    {
        $parts = parse_url($url);
        $scheme = strtolower($parts['scheme'] ?? '');
        $port = $parts['port'] ?? ($scheme === 'https' ? 443 : 80);

        return $scheme . '://' . strtolower($parts['host'] ?? '') . ':' . $port;
    }

    /** The host part of the origin, as the pool's counters name it. */
    public function host(): string
    {
        $hostAndPort = substr($this->origin, (int) strpos($this->origin, '://') + 3);

        return substr($hostAndPort, 0, (int) strrpos($hostAndPort, ':'));
    }

    /** "POST https://api.example.com/x failed: WHAT." — how every failure message starts. */
    public function describe(string $what): string
    {
        return \sprintf('%s %s failed: %s.', $this->method, $this->url, $what);
    }
}
