<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

use Psr\Http\Message\StreamInterface;

/**
 * The body of a streamed response: read() hands out what has arrived and, when nothing has,
 * drives the pool (or suspends the calling WarmHttp fiber) until more comes.
 * Closing it early, or dropping it, cancels the transfer and frees the connection.
 *
 * @internal
 */
final class PullStream implements StreamInterface
{
    use ForwardOnlyBody;

    private int $position = 0;

    private bool $closed = false;

    public function __construct(
        private readonly BodyBuffer $buffer,
        private readonly Transfer $transfer,
        private readonly ?int $size,
    ) {}

    public function __destruct()
    {
        $this->close();
    }

    public function __toString(): string
    {
        try {
            return $this->getContents();
        } catch (\RuntimeException) {
            return '';
        }
    }

    public function read(int $length): string
    {
        if ($this->closed) {
            throw new \RuntimeException('The streamed response body was closed.');
        }
        while (!$this->buffer->isReady()) {
            Scheduler::awaitAny([$this->buffer]);
        }
        $failure = $this->buffer->failure();
        if ($failure !== null) {
            throw new \RuntimeException('Reading the streamed response body failed: ' . $failure->getMessage(), 0, $failure);
        }
        $chunk = $this->buffer->take(max(1, $length));
        $this->position += \strlen($chunk);

        return $chunk;
    }

    public function getContents(): string
    {
        $contents = '';
        while (!$this->eof()) {
            $contents .= $this->read(1048576);
        }

        return $contents;
    }

    public function eof(): bool
    {
        // A failed transfer's last bytes taken is not the end: read() throws its failure, so
        // getContents() and __toString() cannot return a truncated body as a whole one.
        return $this->closed || ($this->buffer->isDrained() && $this->buffer->failure() === null);
    }

    public function close(): void
    {
        if ($this->closed) {
            return;
        }
        $this->closed = true;
        if (!$this->buffer->isDrained()) {
            CurlPool::get()->abort($this->transfer);
        }
    }

    public function detach()
    {
        $this->close();

        return null;
    }

    public function getSize(): ?int
    {
        return $this->size;
    }

    public function tell(): int
    {
        return $this->position;
    }

    public function seek(int $offset, int $whence = \SEEK_SET): void
    {
        throw new \RuntimeException('A streamed response body cannot seek; read it from the start, or buffer it yourself.');
    }

    public function isReadable(): bool
    {
        return !$this->closed;
    }
}
