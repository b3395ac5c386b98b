<?php

declare(strict_types=1);

namespace WarmHttp\Internal\Decoding;

use Psr\Http\Message\StreamInterface;
use WarmHttp\Internal\ForwardOnlyBody;

/**
 * A streamed body read through a Decoder: each read pulls at most INPUT_BYTES of encoded bytes
 * from the stream below, so a reader never waits for the whole body and never holds more than
 * what one slice decodes to. Read-only and forward-only, like the streamed body it wraps.
 *
 * @internal
 */
final class DecodingStream implements StreamInterface
{
    use ForwardOnlyBody;

    /** Deflate expands at most ~1032:1, so one slice decodes to at most ~2 MiB (a 1 GiB bomb: 8-11 MiB peak; 4096 gave 10-13, 1024 cost 30% more CPU on a 1.7 MB body). */
    public const INPUT_BYTES = 2048;

    private string $decoded = '';

    private int $offset = 0;

    private int $position = 0;

    public function __construct(private readonly StreamInterface $encoded, private readonly Decoder $decoder) {}

    /** A body that stops decoding throws here too (PHP 8 allows it): an empty string would pass for a body. */
    public function __toString(): string
    {
        return $this->getContents();
    }

    public function read(int $length): string
    {
        while ($this->offset >= \strlen($this->decoded) && !$this->encoded->eof()) {
            $encoded = $this->encoded->read(self::INPUT_BYTES);
            if ($encoded === '') {
                break; // nothing more now, though the stream below does not say it ended
            }
            $this->decoded = ''; // read to the end: let it go before the next slice is decoded
            $this->offset = 0;
            $this->decoded = $this->decode($encoded);
        }
        $chunk = substr($this->decoded, $this->offset, max(1, $length));
        $this->offset += \strlen($chunk);
        $this->position += \strlen($chunk);

        return $chunk;
    }

    public function getContents(): string
    {
        $contents = '';
        while (($chunk = $this->read(65536)) !== '') {
            $contents .= $chunk;
        }

        return $contents;
    }

    public function eof(): bool
    {
        return $this->offset >= \strlen($this->decoded) && $this->encoded->eof();
    }

    public function close(): void
    {
        $this->decoded = '';
        $this->offset = 0;
        $this->encoded->close();
    }

    /** The decoded bytes have no resource of their own; the one below holds encoded bytes. */
    public function detach()
    {
        $this->close();

        return null;
    }

    public function getSize(): ?int
    {
        return null;
    }

    public function tell(): int
    {
        return $this->position;
    }

    public function seek(int $offset, int $whence = \SEEK_SET): void
    {
        throw new \RuntimeException('A decoded streamed response body cannot seek; read it in order, or send the request without the "stream" option to get a seekable body.');
    }

    public function isReadable(): bool
    {
        return true;
    }

    private function decode(string $encoded): string
    {
        try {
            return $this->decoder->add($encoded);
        } catch (DecodingFailed $e) {
            // Guzzle's StreamHandler fails the read with "Unable to read from stream".
            throw new \RuntimeException('Unable to read from stream: ' . $e->getMessage(), 0, $e);
        }
    }
}
