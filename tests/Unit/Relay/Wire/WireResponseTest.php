<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Wire;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Wire\WireResponse;

final class WireResponseTest extends TestCase
{
    public function testRendersStatusHeadersLengthAndBody(): void
    {
        self::assertSame(
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello",
            WireResponse::render(200, 'hello', [['Content-Type', 'text/plain']]),
        );
    }

    public function testAddsConnectionCloseWhenClosing(): void
    {
        self::assertSame("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", WireResponse::render(400, '', [], true));
    }

    public function testUsesAGivenReasonOrAGenericOneForAnUnknownStatus(): void
    {
        self::assertStringStartsWith("HTTP/1.1 201 Created\r\n", WireResponse::render(201, '', [], false, 'Created'));
        self::assertStringStartsWith("HTTP/1.1 299 Status\r\n", WireResponse::render(299, ''));
    }

    public function testNeverWritesAReasonThatCouldEndTheStatusLine(): void
    {
        foreach (["OK\r\nX-WarmHttp-Error: forged", "OK\rX-A: 1", "OK\nX-A: 1", "O\0K"] as $reason) {
            self::assertSame("HTTP/1.1 200 OK\r\n\r\n", WireResponse::head(200, [], $reason, []), json_encode($reason) ?: '');
        }
    }

    public function testHeadWritesTheFramingLastAndEndsWithABlankLine(): void
    {
        self::assertSame(
            "HTTP/1.1 200 OK\r\nX-A: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
            WireResponse::head(200, [['X-A', '1']], '', [['Transfer-Encoding', 'chunked']]),
        );
    }

    public function testRelayErrorCarriesItsReasonOnOneLineInAHeader(): void
    {
        $answer = WireResponse::relayError(502, "upstream\r\nbroke", true);

        self::assertStringStartsWith("HTTP/1.1 502 Bad Gateway\r\n", $answer);
        self::assertStringContainsString("X-WarmHttp-Error: upstream  broke\r\n", $answer);
        self::assertStringContainsString("Content-Type: text/plain; charset=utf-8\r\n", $answer);
        self::assertStringContainsString("Connection: close\r\n", $answer);
        self::assertStringEndsWith("\r\n\r\nupstream\r\nbroke\n", $answer);
    }

    public function testRelayErrorCutsALongReasonInTheHeader(): void
    {
        $answer = WireResponse::relayError(400, str_repeat('x', 300));

        self::assertStringContainsString('X-WarmHttp-Error: ' . str_repeat('x', 200) . "\r\n", $answer);
    }

    public function testAcceptedIs202WithTheJournalIdAndIdempotencyKey(): void
    {
        self::assertSame(
            "HTTP/1.1 202 Accepted\r\nX-WarmHttp-Id: 3-128\r\nIdempotency-Key: key-1\r\nContent-Length: 0\r\n\r\n",
            WireResponse::accepted('3-128', 'key-1'),
        );
    }
}
