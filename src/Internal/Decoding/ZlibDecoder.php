<?php

declare(strict_types=1);

namespace WarmHttp\Internal\Decoding;

/**
 * gzip and deflate, inflated incrementally with ext-zlib's inflate_add(): memory stays at what
 * one call's input decodes to, whatever the whole body inflates to.
 *
 * Three flavours, each matching what a Guzzle handler gets from its decoder:
 *  - gzip(): libcurl's "gzip" (zlib's auto-detection: a gzip or a zlib header); bytes after
 *    the end of the stream fail, as libcurl fails them (CURLE_WRITE_ERROR);
 *  - deflate(): libcurl's "deflate": a zlib stream, or, when its header does not check, raw
 *    deflate ("some servers seem to not generate zlib headers"), with up to 4 stray trailer bytes;
 *  - lenient(): PHP's zlib.inflate stream filter as Guzzle's StreamHandler uses it (window
 *    15+32: gzip or zlib header, no raw fallback); what follows the end is ignored.
 *
 * @internal
 */
final class ZlibDecoder implements Decoder
{
    private const GZIP_MAGIC = "\x1f\x8b";

    /** libcurl tolerates this many unknown bytes after a raw deflate stream (an Adler-32 some servers append). */
    private const RAW_TRAILER_BYTES = 4;

    private ?\InflateContext $context = null;

    /** Bytes given before the format could be told (a header is 2 bytes) or before any output, kept for the raw retry. */
    private string $unsettled = '';

    private bool $producedOutput = false;

    private bool $ended = false;

    private bool $raw = false;

    private int $trailerLeft = 0;

    private function __construct(
        private readonly string $coding,
        private readonly bool $rawFallback,
        private readonly bool $strictEnd,
    ) {}

    /** A copy would share the inflate context with the original and corrupt both. */
    private function __clone() {}

    public static function gzip(): self
    {
        return new self('gzip', false, true);
    }

    public static function deflate(): self
    {
        return new self('deflate', true, true);
    }

    public static function lenient(string $coding): self
    {
        return new self($coding, false, false);
    }

    public function add(string $encoded): string
    {
        if ($encoded === '') {
            return '';
        }
        if ($this->ended) {
            $this->afterEnd($encoded);

            return '';
        }
        if ($this->context === null) {
            $encoded = $this->unsettled . $encoded;
            if (\strlen($encoded) < 2) {
                $this->unsettled = $encoded; // one byte cannot tell gzip from zlib

                return '';
            }
            $this->unsettled = '';
            $this->context = $this->open($encoded);
        }

        return $this->inflate($encoded);
    }

    private function open(string $firstBytes): \InflateContext
    {
        // libcurl's "deflate" never reads a gzip header; the other two detect it as zlib's 15+32 window does.
        $gzip = !$this->rawFallback && str_starts_with($firstBytes, self::GZIP_MAGIC);

        return self::context($gzip ? \ZLIB_ENCODING_GZIP : \ZLIB_ENCODING_DEFLATE);
    }

    private static function context(int $encoding): \InflateContext
    {
        $context = inflate_init($encoding);
        if ($context === false) {
            throw new \LogicException('ext-zlib could not set up an inflate context.');
        }

        return $context;
    }

    private function inflate(string $encoded): string
    {
        \assert($this->context !== null);
        $readBefore = inflate_get_read_len($this->context);
        error_clear_last(); // failed() reads zlib's reason from the warning
        $decoded = @inflate_add($this->context, $encoded, \ZLIB_SYNC_FLUSH);
        if ($decoded === false) {
            return $this->failed($encoded);
        }
        if (!$this->producedOutput) {
            $this->producedOutput = $decoded !== '';
            $this->unsettled = $this->producedOutput || !$this->rawFallback ? '' : $this->unsettled . $encoded;
        }
        if (inflate_get_status($this->context) === \ZLIB_STREAM_END) {
            $this->ended = true;
            $this->afterEnd(substr($encoded, inflate_get_read_len($this->context) - $readBefore));
        }

        return $decoded;
    }

    private function failed(string $encoded): string
    {
        $why = error_get_last()['message'] ?? 'data error';
        if ($this->rawFallback && !$this->raw && !$this->producedOutput) {
            $this->raw = true;
            $this->trailerLeft = self::RAW_TRAILER_BYTES;
            $this->context = self::context(\ZLIB_ENCODING_RAW);
            $retry = $this->unsettled . $encoded;
            $this->unsettled = '';

            return $this->inflate($retry);
        }

        throw DecodingFailed::corrupt($this->coding, str_replace('inflate_add(): ', '', $why));
    }

    private function afterEnd(string $rest): void
    {
        if ($rest === '' || !$this->strictEnd) {
            return;
        }
        $tolerated = min($this->trailerLeft, \strlen($rest));
        $this->trailerLeft -= $tolerated;
        if (\strlen($rest) > $tolerated) {
            throw DecodingFailed::trailingBytes($this->coding);
        }
    }
}
