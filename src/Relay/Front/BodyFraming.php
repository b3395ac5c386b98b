<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Front;

use WarmHttp\Internal\BodyBuffer;
use WarmHttp\Relay\Wire\AnswerHead;
use WarmHttp\Relay\Wire\WireRequest;

/**
 * How a sync-mode answer's body is delimited on the relay socket. The destination's own
 * framing (Transfer-Encoding, and on HTTP/2 none at all) concerned its hop only: the relay
 * frames the body again for the caller, from what curl delivered. A length is announced only
 * where the relay enforces it: a whole body it holds, or a Content-Length it counts down and
 * never writes past (overran()); a body that ends short is !isSatisfied().
 *
 * @internal
 */
final class BodyFraming
{
    private const NONE = 'none';
    private const WHOLE = 'whole';
    private const LENGTH = 'length';
    private const CHUNKED = 'chunked';
    private const CLOSE = 'close';

    /** Bytes a LENGTH body still owes; 0 for the other kinds. */
    private int $remaining;

    private bool $overran = false;

    /** Not native readonly: one per sync answer, and PHP 8.2 writes those on the VM's slow path. */
    private function __construct(
        /** @readonly */
        private string $kind,
        /** @readonly */
        private ?string $length,
    ) {
        $this->remaining = $kind === self::LENGTH ? (int) $length : 0;
    }

    /** @throws UnframeableAnswer */
    public static function choose(int $status, AnswerHead $head, WireRequest $wire, BodyBuffer $body): self
    {
        if ($status < 200) {
            // curl answers 100 and 103 itself; any other 1xx as a final answer (101 unasked)
            // would leave the caller's connection in a protocol the relay does not speak.
            throw new UnframeableAnswer(\sprintf('the destination answered %d as its final answer', $status));
        }
        $announced = self::announcedLength($head);
        if ($status === 204) {
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

    /** Body bytes as written to the caller: never past an announced length. */
    public function frame(string $bytes): string
    {
        return match (true) {
            $bytes === '' || $this->kind === self::NONE => '',
            $this->kind === self::CHUNKED => dechex(\strlen($bytes)) . "\r\n" . $bytes . "\r\n",
            $this->kind === self::LENGTH => $this->countDown($bytes),
            default => $bytes,
        };
    }

    /** More body bytes came than the announced length: the caller's connection must close. */
    public function overran(): bool
    {
        return $this->overran;
    }

    /** Whether every announced byte has been framed (always, where nothing was announced). */
    public function isSatisfied(): bool
    {
        return $this->remaining === 0;
    }

    /** What ends a complete body. */
    public function trailer(): string
    {
        return $this->kind === self::CHUNKED ? "0\r\n\r\n" : '';
    }

    private function countDown(string $bytes): string
    {
        if (\strlen($bytes) > $this->remaining) {
            $this->overran = true;
            $bytes = substr($bytes, 0, $this->remaining);
        }
        $this->remaining -= \strlen($bytes);

        return $bytes;
    }

    /**
     * The Content-Length the head announces, if it announces exactly one. libcurl 7.88 ignores
     * Content-Length beside chunked, takes the last of several and the first of "5, 6", and
     * reads "+5" as 5: each of those would let the caller count differently from curl.
     *
     * @throws UnframeableAnswer
     */
    private static function announcedLength(AnswerHead $head): ?string
    {
        $values = $head->contentLengths;
        if ($values === []) {
            return null;
        }
        if ($head->transferEncoding) {
            throw new UnframeableAnswer('the destination answered with both Transfer-Encoding and Content-Length');
        }
        if (\count($values) === 1 && ctype_digit($values[0]) && \strlen($values[0]) <= 18) {
            return (string) (int) $values[0]; // the usual single length: no list to split
        }
        $length = null;
        foreach ($values as $value) {
            foreach (explode(',', $value) as $item) {
                $item = trim($item, " \t");
                $number = ctype_digit($item) && \strlen($item) <= 18 ? (string) (int) $item : null;
                if ($number === null || ($length !== null && $number !== $length)) {
                    throw new UnframeableAnswer('the destination answered with an invalid or conflicting Content-Length ' . json_encode(substr(implode(', ', $values), 0, 60)));
                }
                $length = $number;
            }
        }

        return $length;
    }
}
