<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Wire;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Wire\BadWireRequest;
use WarmHttp\Relay\Wire\ChunkedBody;

final class ChunkedBodyTest extends TestCase
{
    private const MAX_BODY = 64;

    public function testJoinsTheChunksAndReportsTheOffsetPastTheBody(): void
    {
        $encoded = "5\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\n\r\n";

        self::assertSame(['hello world', \strlen($encoded)], ChunkedBody::decode($encoded, 0, self::MAX_BODY));
    }

    public function testStartsAtTheGivenOffsetAndLeavesWhatFollows(): void
    {
        $head = "POST / HTTP/1.1\r\n\r\n";
        $encoded = "3\r\nabc\r\n0\r\n\r\n";

        self::assertSame(['abc', \strlen($head . $encoded)], ChunkedBody::decode($head . $encoded . 'GET / HTTP/1.1', \strlen($head), self::MAX_BODY));
    }

    public function testReadsHexSizesInEitherCase(): void
    {
        $data = str_repeat('x', 26);

        self::assertSame($data . $data, ChunkedBody::decode("1a\r\n$data\r\n1A\r\n$data\r\n0\r\n\r\n", 0, self::MAX_BODY)[0] ?? null);
    }

    public function testIgnoresChunkExtensions(): void
    {
        self::assertSame('abc', ChunkedBody::decode("3;name=value;other\r\nabc\r\n0;last\r\n\r\n", 0, self::MAX_BODY)[0] ?? null);
    }

    public function testReadsAndDropsTrailers(): void
    {
        $encoded = "3\r\nabc\r\n0\r\nX-Checksum: 1234\r\nX-Other: 5\r\n\r\n";

        self::assertSame(['abc', \strlen($encoded)], ChunkedBody::decode($encoded, 0, self::MAX_BODY));
    }

    public function testAnEmptyBodyIsTheLastChunkAlone(): void
    {
        self::assertSame(['', 5], ChunkedBody::decode("0\r\n\r\n", 0, self::MAX_BODY));
    }

    /** @return iterable<string, array{string}> */
    public static function unfinishedBodies(): iterable
    {
        yield 'nothing yet' => [''];
        yield 'part of a size line' => ['5'];
        yield 'part of a chunk' => ["5\r\nhel"];
        yield 'chunk without its CRLF' => ["5\r\nhello"];
        yield 'chunk with half its CRLF' => ["5\r\nhello\r"];
        yield 'no last chunk yet' => ["5\r\nhello\r\n"];
        yield 'last chunk without the blank line' => ["5\r\nhello\r\n0\r\n"];
        yield 'a trailer not yet ended' => ["5\r\nhello\r\n0\r\nX-A: 1\r\n"];
    }

    #[DataProvider('unfinishedBodies')]
    public function testWaitsForTheRestOfASplitBody(string $buffer): void
    {
        self::assertNull(ChunkedBody::decode($buffer, 0, self::MAX_BODY));
    }

    public function testDecodesTheSameBodyFedOneByteAtATime(): void
    {
        $encoded = "4;x=y\r\nwiki\r\n5\r\npedia\r\n0\r\nT: v\r\n\r\n";
        for ($i = 1; $i < \strlen($encoded); ++$i) {
            self::assertNull(ChunkedBody::decode(substr($encoded, 0, $i), 0, self::MAX_BODY), "after $i bytes");
        }

        self::assertSame(['wikipedia', \strlen($encoded)], ChunkedBody::decode($encoded, 0, self::MAX_BODY));
    }

    /** @return iterable<string, array{string}> */
    public static function malformedSizes(): iterable
    {
        yield 'empty size line' => ["\r\nabc\r\n"];
        yield 'not hex' => ["xyz\r\nabc\r\n"];
        yield 'negative' => ["-3\r\nabc\r\n"];
        yield 'hex prefix' => ["0x3\r\nabc\r\n"];
        yield 'nine hex digits' => ["000000003\r\nabc\r\n"];
        yield 'sign' => ["+3\r\nabc\r\n"];
        yield 'space inside' => ["1 0\r\nabc\r\n"];
    }

    #[DataProvider('malformedSizes')]
    public function testRefusesAMalformedChunkSizeWith400(string $buffer): void
    {
        self::assertRefused(400, $buffer, 'Malformed chunk size');
    }

    public function testRefusesAChunkThatDoesNotEndWithCrlf(): void
    {
        self::assertRefused(400, "3\r\nabcd\r\n0\r\n\r\n", 'does not end with CRLF');
    }

    public function testRefusesABodyPastTheLimitWith413BeforeItsBytesArrive(): void
    {
        self::assertRefused(413, "20\r\n" . str_repeat('a', 32) . "\r\n21\r\n", '--max-body=64');
    }

    public function testRefusesAHugeChunkSizeWith413(): void
    {
        self::assertRefused(413, "ffffffff\r\n", 'larger than the relay accepts');
    }

    public function testAcceptsABodyOfExactlyTheLimit(): void
    {
        self::assertSame(str_repeat('a', 64), ChunkedBody::decode("40\r\n" . str_repeat('a', 64) . "\r\n0\r\n\r\n", 0, self::MAX_BODY)[0] ?? null);
    }

    /** @return iterable<string, array{string}> */
    public static function whitespaceAroundSizes(): iterable
    {
        yield 'NUL before the size' => ["\x003\r\nabc\r\n0\r\n\r\n"];
        yield 'space before the size' => [" 3\r\nabc\r\n0\r\n\r\n"];
        yield 'tab before the size' => ["\t3\r\nabc\r\n0\r\n\r\n"];
        yield 'space after the size' => ["3 \r\nabc\r\n0\r\n\r\n"];
        yield 'vertical tab after the size' => ["3\x0B\r\nabc\r\n0\r\n\r\n"];
        yield 'bare LF ends the size line' => ["3\nabc\r\n0\r\n\r\n"];
        yield 'space after the last chunk' => ["3\r\nabc\r\n0 \r\n\r\n"];
    }

    #[DataProvider('whitespaceAroundSizes')]
    public function testRefusesAnythingButHexDigitsAroundAChunkSizeWith400(string $buffer): void
    {
        self::assertRefused(400, $buffer, 'Malformed chunk size');
    }

    public function testAllowsTheBadWhitespaceTheGrammarAllowsAroundExtensions(): void
    {
        self::assertSame('abc', ChunkedBody::decode("3 ; a = b ;\tc=\"q \\\" d\"\r\nabc\r\n0\r\n\r\n", 0, self::MAX_BODY)[0] ?? null);
    }

    /** @return iterable<string, array{string}> */
    public static function malformedExtensions(): iterable
    {
        yield 'empty name' => ["3;\r\nabc\r\n"];
        yield 'name not a token' => ["3;a@b\r\nabc\r\n"];
        yield 'unterminated quote' => ["3;a=\"b\r\nabc\r\n"];
        yield 'control byte in a value' => ["3;a=b\x01\r\nabc\r\n"];
    }

    #[DataProvider('malformedExtensions')]
    public function testRefusesAMalformedExtensionWith400(string $buffer): void
    {
        self::assertRefused(400, $buffer, 'Malformed chunk size or extension');
    }

    public function testRefusesMoreExtensionsThanTheLimit(): void
    {
        self::assertRefused(400, '3' . str_repeat(';a', ChunkedBody::MAX_EXTENSIONS_PER_CHUNK + 1) . "\r\nabc\r\n", 'more than 16 extensions');
    }

    public function testRefusesASizeLineLongerThanTheLimitBeforeItEnds(): void
    {
        self::assertRefused(400, '3;a=' . str_repeat('b', ChunkedBody::MAX_SIZE_LINE_BYTES), 'longer than 4096 bytes');
    }

    public function testRefusesTrailersLargerThanTheLimitWith431BeforeTheyEnd(): void
    {
        self::assertRefused(431, "0\r\nX-A: " . str_repeat('b', ChunkedBody::MAX_TRAILER_BYTES), 'trailers are larger than 16384 bytes');
    }

    public function testRefusesMoreTrailersThanTheLimitWith431(): void
    {
        self::assertRefused(431, "0\r\n" . str_repeat("X-A: 1\r\n", ChunkedBody::MAX_TRAILERS + 1), 'more than 64 trailer fields');
    }

    public function testRefusesAMalformedTrailerWith400(): void
    {
        self::assertRefused(400, "0\r\nno colon\r\n\r\n", 'Malformed trailer line');
    }

    public function testFeedKeepsItsPlaceAcrossReadsAndConsumesWhatItDecoded(): void
    {
        $encoded = "4;x=y\r\nwiki\r\n5\r\npedia\r\n0\r\nT: v\r\n\r\nNEXT";
        $decoder = new ChunkedBody(self::MAX_BODY);
        $pending = '';
        foreach (str_split($encoded, 3) as $read) {
            $pending .= $read;
            $pending = substr($pending, $decoder->feed($pending, 0));
            if ($decoder->isComplete()) {
                break;
            }
        }

        self::assertTrue($decoder->isComplete());
        self::assertSame('wikipedia', $decoder->body());
        self::assertTrue(str_starts_with('NEXT', $pending), 'what follows the body is left for the next request');
    }

    public function testDecodesAMegabyteOfOneByteChunksInLinearTime(): void
    {
        $encoded = str_repeat("1\r\nx\r\n", 1 << 20) . "0\r\n\r\n";
        $decoder = new ChunkedBody(1 << 20);
        $started = hrtime(true);
        $pending = '';
        foreach (str_split($encoded, 65536) as $read) {
            $pending .= $read;
            $pending = substr($pending, $decoder->feed($pending, 0));
        }
        $seconds = (hrtime(true) - $started) / 1e9;

        self::assertTrue($decoder->isComplete());
        self::assertSame(1 << 20, $decoder->bufferedBytes());
        self::assertLessThan(2.0, $seconds, 'quadratic decoding took 72 s for this');
    }

    private static function assertRefused(int $status, string $buffer, string $inMessage): void
    {
        try {
            ChunkedBody::decode($buffer, 0, self::MAX_BODY);
        } catch (BadWireRequest $e) {
            self::assertSame($status, $e->status);
            self::assertStringContainsString($inMessage, $e->getMessage());

            return;
        }
        self::fail(\sprintf('Expected a %d refusal for %s', $status, json_encode($buffer)));
    }
}
