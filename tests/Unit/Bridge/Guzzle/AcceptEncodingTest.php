<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Bridge\Guzzle;

use GuzzleHttp\Psr7\Request;
use PHPUnit\Framework\TestCase;
use WarmHttp\Bridge\Guzzle\AcceptEncoding;

final class AcceptEncodingTest extends TestCase
{
    private const DECODING = ['decode_content' => true];

    public function testTakesOutWhatCannotBeDecodedHere(): void
    {
        self::assertSame('gzip, deflate', self::narrowed('gzip, deflate, br', self::DECODING));
        self::assertSame('gzip;q=0.5', self::narrowed('br;q=1.0, gzip;q=0.5, ZSTD', self::DECODING));
        self::assertNull(self::narrowed('br', self::DECODING), 'nothing left: no preference, as Guzzle sends by default');
    }

    public function testLeavesTheHeaderAloneWhenThereIsNothingToTakeOut(): void
    {
        $request = new Request('GET', 'http://127.0.0.1/', ['Accept-Encoding' => 'gzip,deflate']);

        self::assertSame($request, AcceptEncoding::narrow($request, self::DECODING));
        self::assertNull(self::narrowed(null, self::DECODING));
    }

    public function testLeavesTheHeaderAloneWhenNotDecodingOrStreaming(): void
    {
        self::assertSame('gzip, br', self::narrowed('gzip, br', ['decode_content' => false]));
        self::assertSame('gzip, br', self::narrowed('gzip, br', []));
        self::assertSame('gzip, br', self::narrowed('gzip, br', ['decode_content' => true, 'stream' => true]));
    }

    /** @param array<string, mixed> $options */
    private static function narrowed(?string $accept, array $options): ?string
    {
        $request = new Request('GET', 'http://127.0.0.1/', $accept === null ? [] : ['Accept-Encoding' => $accept]);
        $narrowed = AcceptEncoding::narrow($request, $options);

        return $narrowed->hasHeader('Accept-Encoding') ? $narrowed->getHeaderLine('Accept-Encoding') : null;
    }
}
