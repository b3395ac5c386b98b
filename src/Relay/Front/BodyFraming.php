<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Front;

use Psr\Http\Message\ResponseInterface;
use WarmHttp\Internal\BodyBuffer;
use WarmHttp\Relay\Wire\WireRequest;

/**
 * How a sync-mode answer's body is delimited on the relay socket. The destination's own
 * framing (Transfer-Encoding, and on HTTP/2 none at all) concerned its hop only: the relay
 * frames the body again for the caller.
 *
 * @internal
 */
final readonly class BodyFraming
{
    private const NONE = 'none';
    private const WHOLE = 'whole';
    private const LENGTH = 'length';
    private const CHUNKED = 'chunked';
    private const CLOSE = 'close';

    private function __construct(private string $kind, private ?string $length) {}

    public static function choose(ResponseInterface $response, WireRequest $wire, BodyBuffer $body): self
    {
        $status = $response->getStatusCode();
        $length = $response->getHeaderLine('Content-Length');
        $announced = ctype_digit($length) ? $length : null;
        if ($status < 200 || $status === 204) {
            return new self(self::NONE, null);
        }
        if ($wire->method === 'HEAD' || $status === 304) {
            // No body follows; the Content-Length, if any, describes the representation.
            return new self(self::NONE, $announced);
        }

        return match (true) {
            $body->isComplete() => new self(self::WHOLE, (string) $body->buffered()),
            $announced !== null => new self(self::LENGTH, $announced),
            $wire->http10 => new self(self::CLOSE, null),
            default => new self(self::CHUNKED, null),
        };
    }

    /** @return list<array{string, string}> */
    public function headers(): array
    {
        return match (true) {
            $this->length !== null => [['Content-Length', $this->length]],
            $this->kind === self::CHUNKED => [['Transfer-Encoding', 'chunked']],
            $this->kind === self::CLOSE => [['Connection', 'close']],
            default => [],
        };
    }

    public function isWhole(): bool
    {
        return $this->kind === self::WHOLE;
    }

    public function closesConnection(): bool
    {
        return $this->kind === self::CLOSE;
    }

    public function frame(string $bytes): string
    {
        return match (true) {
            $bytes === '' || $this->kind === self::NONE => '',
            $this->kind === self::CHUNKED => dechex(\strlen($bytes)) . "\r\n" . $bytes . "\r\n",
            default => $bytes,
        };
    }

    /** What ends a complete body. */
    public function trailer(): string
    {
        return $this->kind === self::CHUNKED ? "0\r\n\r\n" : '';
    }
}
