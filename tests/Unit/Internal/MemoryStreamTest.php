<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Internal;

use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\MemoryStream;

final class MemoryStreamTest extends TestCase
{
    public function testReadsFromTheStartToTheEnd(): void
    {
        $stream = new MemoryStream('hello world');

        self::assertSame(11, $stream->getSize());
        self::assertSame('hello', $stream->read(5));
        self::assertSame(5, $stream->tell());
        self::assertFalse($stream->eof());
        self::assertSame(' world', $stream->read(100));
        self::assertTrue($stream->eof());
        self::assertSame('', $stream->read(5));
    }

    public function testGetContentsReturnsTheRest(): void
    {
        $stream = new MemoryStream('abcdef');
        $stream->read(2);

        self::assertSame('cdef', $stream->getContents());
        self::assertSame('', $stream->getContents());
    }

    public function testCastingToAStringGivesEverythingWhereverThePositionIs(): void
    {
        $stream = new MemoryStream('abcdef');
        $stream->read(4);

        self::assertSame('abcdef', (string) $stream);
        self::assertTrue($stream->eof());
    }

    public function testSeeksFromTheStartTheCurrentPositionAndTheEnd(): void
    {
        $stream = new MemoryStream('0123456789');

        $stream->seek(3);
        self::assertSame(3, $stream->tell());
        $stream->seek(2, \SEEK_CUR);
        self::assertSame('5', $stream->read(1));
        $stream->seek(-2, \SEEK_END);
        self::assertSame('89', $stream->read(2));
        $stream->rewind();
        self::assertSame(0, $stream->tell());
    }

    public function testRefusesToSeekBeforeTheStart(): void
    {
        $this->expectException(\RuntimeException::class);
        $this->expectExceptionMessage('Cannot seek to -1');

        (new MemoryStream('abc'))->seek(-4, \SEEK_END);
    }

    public function testRefusesAnUnknownWhence(): void
    {
        $this->expectException(\RuntimeException::class);
        $this->expectExceptionMessage('Invalid whence 42');

        (new MemoryStream('abc'))->seek(0, 42);
    }

    public function testRefusesANegativeReadLength(): void
    {
        $this->expectException(\RuntimeException::class);

        (new MemoryStream('abc'))->read(-1);
    }

    public function testWritesOverAndPastTheExistingBytes(): void
    {
        $stream = new MemoryStream('hello');
        $stream->seek(3);

        self::assertSame(4, $stream->write('p me'));
        self::assertSame('help me', (string) $stream);
        self::assertSame(7, $stream->getSize());
    }

    public function testWritingPastTheEndFillsTheGapWithNulBytes(): void
    {
        $stream = new MemoryStream('ab');
        $stream->seek(4);
        $stream->write('z');

        self::assertSame("ab\0\0z", (string) $stream);
    }

    public function testAnEmptyStreamIsAtItsEnd(): void
    {
        $stream = new MemoryStream();

        self::assertSame(0, $stream->getSize());
        self::assertTrue($stream->eof());
        self::assertSame('', $stream->getContents());
    }

    public function testIsReadableWritableAndSeekableUntilDetached(): void
    {
        $stream = new MemoryStream('abc');

        self::assertTrue($stream->isReadable());
        self::assertTrue($stream->isWritable());
        self::assertTrue($stream->isSeekable());
        self::assertSame(['seekable' => true, 'mode' => 'r+'], $stream->getMetadata());
        self::assertSame('r+', $stream->getMetadata('mode'));
        self::assertNull($stream->getMetadata('uri'));

        self::assertNull($stream->detach());

        self::assertFalse($stream->isReadable());
        self::assertFalse($stream->isWritable());
        self::assertFalse($stream->isSeekable());
        self::assertFalse($stream->getMetadata('seekable'));
        self::assertNull($stream->getSize());
        self::assertTrue($stream->eof());
        self::assertSame('', (string) $stream);
    }

    public function testADetachedStreamRefusesToReadWriteSeekOrTell(): void
    {
        $stream = new MemoryStream('abc');
        $stream->close();
        $refused = 0;
        foreach ([
            static fn() => $stream->read(1),
            static fn() => $stream->write('x'),
            static fn() => $stream->seek(0),
            static fn() => $stream->tell(),
            static fn() => $stream->getContents(),
        ] as $call) {
            try {
                $call();
            } catch (\RuntimeException $e) {
                self::assertSame('The stream is detached.', $e->getMessage());
                ++$refused;
            }
        }

        self::assertSame(5, $refused);
    }
}
