<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Bridge\Guzzle;

use GuzzleHttp\Psr7\Response;
use PHPUnit\Framework\TestCase;
use WarmHttp\Bridge\Guzzle\ContentDecoding;
use WarmHttp\Internal\Decoding\DecodingFailed;
use WarmHttp\Internal\Decoding\DecodingStream;

final class ContentDecodingTest extends TestCase
{
    public function testDecodesOnlyWhenDecodeContentIsSetAndNotFalse(): void
    {
        self::assertFalse(ContentDecoding::enabled([]), 'a handler called without Guzzle\'s Client defaults decodes nothing, as CurlFactory');
        self::assertFalse(ContentDecoding::enabled(['decode_content' => false]));
        self::assertTrue(ContentDecoding::enabled(['decode_content' => true]));
        self::assertTrue(ContentDecoding::enabled(['decode_content' => 'gzip']));
    }

    public function testMovesTheCodingAndTheEncodedLengthAsGuzzlesEasyHandleDoes(): void
    {
        $encoded = (string) gzencode('abc');
        [$response, $decoder] = ContentDecoding::buffered(new Response(200, ['Content-Encoding' => 'gzip', 'Content-Length' => (string) \strlen($encoded)], $encoded), 0);

        self::assertNotNull($decoder);
        self::assertSame('abc', $decoder->add($encoded));
        self::assertFalse($response->hasHeader('Content-Encoding'));
        self::assertFalse($response->hasHeader('Content-Length'));
        self::assertSame(['gzip'], $response->getHeader('x-encoded-content-encoding'));
        self::assertSame([(string) \strlen($encoded)], $response->getHeader('x-encoded-content-length'));
    }

    public function testASinkThatAlreadyHeldBytesGivesItsSizeAsContentLengthAsGuzzleDoes(): void
    {
        [$response] = ContentDecoding::buffered(new Response(200, ['Content-Encoding' => 'gzip', 'Content-Length' => '23']), 5);

        self::assertSame('5', $response->getHeaderLine('Content-Length'));
    }

    public function testIdentityIsMovedButNotDecoded(): void
    {
        [$response, $decoder] = ContentDecoding::buffered(new Response(200, ['Content-Encoding' => 'identity']), 0);

        self::assertNull($decoder);
        self::assertSame('identity', $response->getHeaderLine('x-encoded-content-encoding'));
    }

    public function testStackedCodingsAreUndoneLastFirst(): void
    {
        $encoded = (string) gzcompress((string) gzencode('stacked'));
        [, $decoder] = ContentDecoding::buffered(new Response(200, ['Content-Encoding' => ['GZIP', ' Deflate ']]), 0);

        self::assertNotNull($decoder);
        self::assertSame('stacked', $decoder->add($encoded));
    }

    public function testMoreThanFiveCodingsAreRefusedAsLibcurlRefusesThem(): void
    {
        $this->expectException(DecodingFailed::class);
        $this->expectExceptionMessage('more than 5 content encodings');

        ContentDecoding::buffered(new Response(200, ['Content-Encoding' => 'gzip, gzip, gzip, gzip, gzip, gzip']), 0);
    }

    public function testAnUnknownCodingFailsOnlyWhenBodyBytesCome(): void
    {
        [, $decoder] = ContentDecoding::buffered(new Response(200, ['Content-Encoding' => 'br']), 0);
        self::assertNotNull($decoder);
        self::assertSame('', $decoder->add(''));

        $this->expectException(DecodingFailed::class);
        $this->expectExceptionMessage('Unrecognized content encoding type "br"');
        $decoder->add('x');
    }

    public function testStreamedDecodesOnlyWhatGuzzlesStreamHandlerDecodes(): void
    {
        $gzip = ContentDecoding::streamed(new Response(200, ['Content-Encoding' => 'gzip', 'Content-Length' => '10'], (string) gzencode('abc')));
        self::assertInstanceOf(DecodingStream::class, $gzip->getBody());
        self::assertSame('abc', (string) $gzip->getBody());
        self::assertSame('10', $gzip->getHeaderLine('x-encoded-content-length'));
        self::assertFalse($gzip->hasHeader('Content-Length'));

        foreach (['x-gzip', 'GZIP', 'gzip, deflate', 'br'] as $untouched) {
            $response = new Response(200, ['Content-Encoding' => $untouched], 'as sent');
            self::assertSame($response, ContentDecoding::streamed($response), $untouched);
        }
    }
}
