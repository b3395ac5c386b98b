<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use Psr\Http\Message\StreamInterface;

/**
 * A buffered response body that `detach()`es as Guzzle's own does: into a PHP stream resource
 * holding the body, positioned where the reader was (Guzzle's CurlHandler buffers into
 * php://temp, and code hands that resource to fpassthru() or stream_copy_to_stream()). The
 * resource is only made when asked for: copying every body into php://temp up front would
 * cost each request a copy of its body.
 *
 * @internal
 */
final class DetachableBody implements StreamInterface
{
    /**
     * stream_get_meta_data() of the php://temp stream Guzzle's CurlHandler buffers a body in
     * (PHP 8.2), which code that logs or branches on a body's `uri` or `mode` sees there.
     */
    private const TEMP_METADATA = ['wrapper_type' => 'PHP', 'stream_type' => 'TEMP', 'mode' => 'w+b', 'unread_bytes' => 0, 'seekable' => true, 'uri' => 'php://temp'];

    public function __construct(private readonly StreamInterface $body) {}

    /** @return resource|null */
    public function detach()
    {
        if (!$this->body->isReadable()) {
            return $this->body->detach();
        }
        $position = $this->body->tell();
        $resource = fopen('php://temp', 'w+');
        if ($resource === false) {
            throw new \RuntimeException('Could not open php://temp for the detached response body.');
        }
        fwrite($resource, (string) $this->body);
        fseek($resource, $position);
        $this->body->detach();

        return $resource;
    }

    public function __toString(): string
    {
        return $this->body->__toString();
    }

    public function close(): void
    {
        $this->body->close();
    }

    public function getSize(): ?int
    {
        return $this->body->getSize();
    }

    public function tell(): int
    {
        return $this->body->tell();
    }

    public function eof(): bool
    {
        return $this->body->eof();
    }

    public function isSeekable(): bool
    {
        return $this->body->isSeekable();
    }

    public function seek(int $offset, int $whence = \SEEK_SET): void
    {
        $this->body->seek($offset, $whence);
    }

    public function rewind(): void
    {
        $this->body->rewind();
    }

    public function isWritable(): bool
    {
        return $this->body->isWritable();
    }

    public function write(string $string): int
    {
        return $this->body->write($string);
    }

    public function isReadable(): bool
    {
        return $this->body->isReadable();
    }

    public function read(int $length): string
    {
        return $this->body->read($length);
    }

    public function getContents(): string
    {
        return $this->body->getContents();
    }

    public function getMetadata(?string $key = null)
    {
        if (!$this->body->isReadable()) {
            return $key === null ? [] : null; // detached or closed, as Guzzle's Stream answers then
        }

        return $key === null ? self::TEMP_METADATA : self::TEMP_METADATA[$key] ?? null;
    }
}
