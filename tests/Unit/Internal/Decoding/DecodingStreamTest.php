<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Internal\Decoding;

use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\Decoding\DecodingStream;
use WarmHttp\Internal\Decoding\ZlibDecoder;
use WarmHttp\Internal\MemoryStream;

final class DecodingStreamTest extends TestCase
{
    public function testReadsTheDecodedBytesInOrder(): void
    {
        $text = str_repeat('0123456789', 10_000);
        $stream = new DecodingStream(new MemoryStream((string) gzencode($text)), ZlibDecoder::gzip());

        self::assertSame('0123', $stream->read(4));
        self::assertSame(4, $stream->tell());
        self::assertFalse($stream->eof());
        self::assertSame(substr($text, 4), $stream->getContents());
        self::assertTrue($stream->eof());
        self::assertSame('', $stream->read(10));
        self::assertNull($stream->getSize());
    }

    public function testPullsOneSliceOfEncodedBytesPerRefill(): void
    {
        $encoded = new MemoryStream((string) gzencode(random_bytes(100_000))); // incompressible: 100 KB stays ~100 KB
        $stream = new DecodingStream($encoded, ZlibDecoder::gzip());
        $stream->read(1);

        self::assertSame(DecodingStream::INPUT_BYTES, $encoded->tell(), 'one read pulls one slice, not the whole body');
    }

    public function testABodyThatStopsDecodingFailsTheReadAsGuzzlesStreamHandlerDoes(): void
    {
        $stream = new DecodingStream(new MemoryStream('this was never gzip'), ZlibDecoder::lenient('gzip'));

        $this->expectException(\RuntimeException::class);
        $this->expectExceptionMessage('Unable to read from stream: Error while processing content unencoding');

        (string) $stream;
    }

    public function testIsReadOnlyAndForwardOnly(): void
    {
        $stream = new DecodingStream(new MemoryStream((string) gzencode('abc')), ZlibDecoder::gzip());

        self::assertTrue($stream->isReadable());
        self::assertFalse($stream->isWritable());
        self::assertFalse($stream->isSeekable());
        self::assertSame([], $stream->getMetadata());
        $this->expectException(\RuntimeException::class);
        $stream->rewind();
    }

    public function testDetachLeavesNoResourceBehind(): void
    {
        $encoded = new MemoryStream((string) gzencode('abc'));
        $stream = new DecodingStream($encoded, ZlibDecoder::gzip());

        self::assertNull($stream->detach());
        self::assertSame('', $stream->read(3));
    }
}
