<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Internal\Decoding;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\Decoding\Decoder;
use WarmHttp\Internal\Decoding\DecodingFailed;
use WarmHttp\Internal\Decoding\ZlibDecoder;

final class ZlibDecoderTest extends TestCase
{
    private const TEXT = 'warm connections, decoded a piece at a time. ';

    /** @return iterable<string, array{\Closure(): Decoder, string}> */
    public static function wellFormed(): iterable
    {
        $text = str_repeat(self::TEXT, 500);
        yield 'gzip' => [ZlibDecoder::gzip(...), (string) gzencode($text)];
        yield 'zlib under "gzip" (libcurl detects the header)' => [ZlibDecoder::gzip(...), (string) gzcompress($text)];
        yield 'deflate (zlib)' => [ZlibDecoder::deflate(...), (string) gzcompress($text)];
        yield 'raw deflate under "deflate"' => [ZlibDecoder::deflate(...), (string) gzdeflate($text)];
        yield 'lenient gzip' => [static fn(): Decoder => ZlibDecoder::lenient('gzip'), (string) gzencode($text)];
        yield 'lenient zlib' => [static fn(): Decoder => ZlibDecoder::lenient('deflate'), (string) gzcompress($text)];
    }

    /** @param \Closure(): Decoder $decoder */
    #[DataProvider('wellFormed')]
    public function testDecodesWhateverTheSlicing(\Closure $decoder, string $encoded): void
    {
        foreach ([1, 2, 3, 7, 2048] as $size) {
            $decoded = self::feed($decoder(), $encoded, $size);
            self::assertSame(md5(str_repeat(self::TEXT, 500)), md5($decoded), "in slices of $size bytes: " . \strlen($decoded) . ' bytes decoded');
        }
    }

    public function testATruncatedStreamGivesWhatDecodedWithoutFailing(): void
    {
        // libcurl does not fail a gzip body cut short: Guzzle's handlers return the part.
        $encoded = (string) gzencode(str_repeat(self::TEXT, 500));
        $decoded = self::feed(ZlibDecoder::gzip(), substr($encoded, 0, (int) (\strlen($encoded) / 2)), 100);

        self::assertGreaterThan(0, \strlen($decoded));
        self::assertSame(substr(str_repeat(self::TEXT, 500), 0, \strlen($decoded)), $decoded);
    }

    public function testNothingInNothingOut(): void
    {
        self::assertSame('', ZlibDecoder::gzip()->add(''));
        self::assertSame('', ZlibDecoder::deflate()->add(''));
    }

    public function testCorruptDataFailsAsABadContentEncoding(): void
    {
        $this->expectException(DecodingFailed::class);
        $this->expectExceptionCode(DecodingFailed::BAD_CONTENT_ENCODING);
        $this->expectExceptionMessage('Error while processing content unencoding');

        ZlibDecoder::gzip()->add('this was never gzip');
    }

    public function testGzipDataUnderDeflateFailsAsLibcurlFailsIt(): void
    {
        $this->expectException(DecodingFailed::class);

        ZlibDecoder::deflate()->add((string) gzencode(self::TEXT));
    }

    public function testBytesAfterTheEndFailAsAWriteErrorLikeLibcurl(): void
    {
        $decoder = ZlibDecoder::gzip();
        $decoder->add((string) gzencode(self::TEXT));

        $this->expectException(DecodingFailed::class);
        $this->expectExceptionCode(DecodingFailed::WRITE_ERROR);

        $decoder->add('junk');
    }

    public function testBytesAfterTheEndInTheSameSliceFailToo(): void
    {
        $this->expectExceptionCode(DecodingFailed::WRITE_ERROR);

        ZlibDecoder::gzip()->add(gzencode('first') . gzencode('second'));
    }

    public function testRawDeflateMayCarryFourStrayTrailerBytes(): void
    {
        $decoder = ZlibDecoder::deflate();
        $decoded = $decoder->add(gzdeflate(self::TEXT) . "\x01\x02\x03\x04");

        self::assertSame(self::TEXT, $decoded);
        $this->expectExceptionCode(DecodingFailed::WRITE_ERROR);
        $decoder->add("\x05");
    }

    public function testLenientIgnoresWhatFollowsTheEndAsGuzzlesStreamHandlerDoes(): void
    {
        $decoder = ZlibDecoder::lenient('gzip');

        self::assertSame('first', $decoder->add(gzencode('first') . gzencode('second')));
        self::assertSame('', $decoder->add('more junk'));
    }

    public function testABombIsDecodedInBoundedSteps(): void
    {
        $bomb = (string) gzencode(str_repeat("\0", 64 << 20), 9); // 64 MiB in about 64 KiB
        $decoder = ZlibDecoder::gzip();
        memory_reset_peak_usage();
        $before = memory_get_usage();
        $total = 0;
        $largest = 0;
        for ($offset = 0; $offset < \strlen($bomb); $offset += 2048) {
            $piece = \strlen($decoder->add(substr($bomb, $offset, 2048)));
            $total += $piece;
            $largest = max($largest, $piece);
        }

        self::assertSame(64 << 20, $total);
        self::assertLessThanOrEqual(2048 * 1100, $largest, 'one slice decodes to at most ~1032 times its size');
        self::assertLessThan(8 << 20, memory_get_peak_usage() - $before);
    }

    /** @param positive-int $slice */
    private static function feed(Decoder $decoder, string $encoded, int $slice): string
    {
        $decoded = '';
        foreach (str_split($encoded, $slice) as $piece) {
            $decoded .= $decoder->add($piece);
        }

        return $decoded;
    }
}
