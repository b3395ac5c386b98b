<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

/**
 * What the pool needs to know of one transfer, and nothing of PSR-7: the Client builds one
 * from a PSR-7 request, the relay straight from the bytes it received.
 *
 * @internal
 */
final class TransferSpec
{
    /**
     * scheme://host:port, the key its connections share (the multiplex gate's per-origin count).
     *
     * @readonly
     */
    public string $origin;

    /**
     * Plain properties marked @readonly, not native readonly ones: one spec is built per request,
     * and PHP 8.2 writes native readonly properties on the VM's slow path.
     *
     * @param string            $url         absolute, without fragment
     * @param string            $host        lower case, as curl and the pool's counters name it
     * @param bool              $resendable  safe to send twice (RFC 9110 9.2.2, or an Idempotency-Key):
     *                                       may be retried on a fresh connection when a reused one was dead
     * @param array<int, mixed> $curlOptions
     */
    public function __construct(
        /** @readonly */
        public string $method,
        /** @readonly */
        public string $url,
        string $scheme,
        /** @readonly */
        public string $host,
        int $port,
        /** @readonly */
        public bool $resendable,
        /** @readonly */
        public array $curlOptions,
        /** @readonly */
        public ResponseSink $sink = ResponseSink::Buffered,
        /** @readonly */
        public ?int $maxResponseBytes = null,
        /**
         * @readonly set when $curlOptions, except CURLOPT_URL and $perTransfer, are the same
         * for every spec with this key and hold no callback (a streamed transfer's are the
         * pool's own, set per transfer): the pool then keeps the options on the easy handle
         * after the transfer (CurlPool::launch) instead of curl_reset() and setting them all again
         */
        public ?string $profile = null,
        /**
         * @readonly with a profile: options set on every transfer besides CURLOPT_URL (the
         * relay's header lines); a streamed transfer's callbacks are the pool's own, set per
         * transfer too
         *
         * @var array<int, mixed>
         */
        public array $perTransfer = [],
    ) {
        $this->origin = $scheme . '://' . $host . ':' . $port;
    }

    /**
     * From an absolute URL (parse_url: for callers that hold no parsed URI).
     *
     * @param array<int, mixed> $curlOptions
     */
    public static function of(string $method, string $url, bool $resendable, array $curlOptions, ResponseSink $sink = ResponseSink::Buffered, ?int $maxResponseBytes = null): self
    {
        $parts = parse_url($url);
        $scheme = strtolower($parts['scheme'] ?? '');

        return new self($method, $url, $scheme, strtolower($parts['host'] ?? ''), $parts['port'] ?? self::defaultPort($scheme), $resendable, $curlOptions, $sink, $maxResponseBytes);
    }

    public static function defaultPort(string $scheme): int
    {
        return $scheme === 'https' ? 443 : 80;
    }

    /** GET, HEAD, OPTIONS, PUT, DELETE, TRACE, or anything with an Idempotency-Key (RFC 9110 9.2.2). */
    public static function isSafeToResend(string $method, bool $hasIdempotencyKey): bool
    {
        return $hasIdempotencyKey || \in_array($method, ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE'], true);
    }

    /** "POST https://api.example.com/x failed: WHAT." — how every failure message starts. */
    public function describe(string $what): string
    {
        return \sprintf('%s %s failed: %s.', $this->method, $this->url, $what);
    }
}
