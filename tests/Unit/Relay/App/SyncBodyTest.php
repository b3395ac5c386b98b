<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\App;

use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\Decoding\DecodingFailed;
use WarmHttp\Internal\FailureKind;
use WarmHttp\Relay\App\HopFailure;
use WarmHttp\Relay\App\SyncBody;

final class SyncBodyTest extends TestCase
{
    public function testReadsTheCodingsOfEveryContentEncodingLineInOrder(): void
    {
        $head = "HTTP/1.1 200 OK\r\nContent-Encoding: gzip, Identity\r\ncontent-encoding:  deflate \r\nContent-Length: 3\r\n\r\n";

        self::assertSame(['gzip', 'identity', 'deflate'], SyncBody::codings($head));
        self::assertSame([], SyncBody::codings("HTTP/1.1 200 OK\r\n\r\n"));
    }

    public function testDecodesAsItArrives(): void
    {
        $gzip = (string) gzencode(str_repeat('warm ', 1000));
        $body = new SyncBody(['gzip'], null);

        foreach (str_split($gzip, 7) as $piece) {
            $body->add($piece);
        }

        self::assertSame(str_repeat('warm ', 1000), $body->contents());
    }

    public function testStackedCodingsAreUndoneInReverse(): void
    {
        $body = new SyncBody(['deflate', 'gzip'], null);

        $body->add((string) gzencode((string) gzcompress('twice')));

        self::assertSame('twice', $body->contents());
    }

    public function testTheLimitHoldsForDecodedBytes(): void
    {
        $body = new SyncBody(['gzip'], 1000);

        try {
            $body->add((string) gzencode(str_repeat('x', 1001)));
            self::fail('1001 decoded bytes are over 1000');
        } catch (HopFailure $e) {
            self::assertSame(FailureKind::TooLarge, $e->failure->kind);
            self::assertStringContainsString('1000 bytes allowed by the "max_response_bytes" option', $e->failure->what);
        }
    }

    public function testAnAnnouncedLengthOverTheLimitFailsAtOnce(): void
    {
        $body = new SyncBody([], 10);
        $body->announced("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n");

        $this->expectException(HopFailure::class);
        $body->announced("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n");
    }

    public function testACodingNothingHereUndoesFailsOnTheFirstBodyByteInLibcurlsWords(): void
    {
        $body = new SyncBody(['compress'], null);
        $body->add('');

        $this->expectException(DecodingFailed::class);
        $this->expectExceptionMessageMatches('/^Unrecognized content encoding type\. libcurl understands deflate, gzip.* content encodings\.$/');
        $body->add('x');
    }

    public function testMoreStackedCodingsThanLibcurlTakesAreRefused(): void
    {
        $this->expectException(DecodingFailed::class);
        new SyncBody(array_fill(0, DecodingFailed::MAX_CODINGS + 1, 'gzip'), null);
    }
}
