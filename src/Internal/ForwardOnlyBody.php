<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

/**
 * The part of PSR-7's StreamInterface that a response body read once, from start to end,
 * answers the same way whatever feeds it (PullStream, Decoding\DecodingStream): no writes, no
 * rewinding, no metadata. Each class still says in seek() why it cannot.
 *
 * @internal
 */
trait ForwardOnlyBody
{
    public function isSeekable(): bool
    {
        return false;
    }

    public function rewind(): void
    {
        $this->seek(0);
    }

    public function isWritable(): bool
    {
        return false;
    }

    public function write(string $string): int
    {
        throw new \RuntimeException('A response body is read-only.');
    }

    public function getMetadata(?string $key = null)
    {
        return $key === null ? [] : null;
    }
}
