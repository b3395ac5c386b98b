<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Internal;

use Nyholm\Psr7\Request;
use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\Psr7Exchange;
use WarmHttp\Internal\ReadTimeout;
use WarmHttp\Internal\ResponseSink;
use WarmHttp\Internal\Transfer;
use WarmHttp\Internal\TransferSpec;

/** The head a transfer collects from curl's header callback, line by line as curl passes them. */
final class TransferTest extends TestCase
{
    public function testTrailersAfterTheHeadAreDroppedNotReadAsTheHead(): void
    {
        $transfer = self::transfer();

        self::feed($transfer, "HTTP/1.1 200 OK\r\n", "Transfer-Encoding: chunked\r\n", "\r\n", "X-Trailer: yes\r\n", "\r\n");

        self::assertSame("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", $transfer->head());
    }

    public function testAStatusLineStartsANewHeadAfterA1xxOrAFollowedRedirect(): void
    {
        $transfer = self::transfer();

        self::feed($transfer, "HTTP/1.1 100 Continue\r\n", "\r\n", "HTTP/1.1 302 Found\r\n", "Location: /b\r\n", "\r\n", "HTTP/2 200 \r\n", "a: 1\r\n", "\r\n");

        self::assertSame("HTTP/2 200 \r\na: 1\r\n\r\n", $transfer->head());
    }

    public function testEveryLineIsAcknowledgedByItsLength(): void
    {
        $transfer = self::transfer();

        self::assertSame(17, $transfer->receiveHeaderLine("HTTP/1.1 200 OK\r\n"));
        self::assertSame(2, $transfer->receiveHeaderLine("\r\n"));
        self::assertSame(16, $transfer->receiveHeaderLine("X-Trailer: yes\r\n"), 'a trailer is taken, not refused');
    }

    public function testAHeadWithABodyStopsAtTheEndOfTheFinalHeadOnly(): void
    {
        $transfer = self::transfer('HEAD', [\CURLOPT_CUSTOMREQUEST => 'HEAD']);

        self::assertTrue($transfer->stopsAtHead());
        self::assertTrue($transfer->usesCallbacks(), 'its header callback is cleared before the handle is recycled');
        foreach (["HTTP/1.1 103 Early Hints\r\n", "Link: </s.css>\r\n", "\r\n", "HTTP/1.1 200 OK\r\n", "Content-Length: 2\r\n"] as $line) {
            self::assertSame(\strlen($line), $transfer->receiveHeadOnly($line));
        }
        self::assertFalse($transfer->stoppedAtHead());
        self::assertSame(0, $transfer->receiveHeadOnly("\r\n"), 'a write error stops curl here');
        self::assertTrue($transfer->stoppedAtHead());
        self::assertSame("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n", $transfer->head());
    }

    public function testOnlyACustomHeadStopsAtTheHead(): void
    {
        self::assertFalse(self::transfer('HEAD', [\CURLOPT_NOBODY => true])->stopsAtHead());
        self::assertFalse(self::transfer('GET', [\CURLOPT_CUSTOMREQUEST => 'GET'])->stopsAtHead());
    }

    public function testAReadTimeoutWatchIsACallbackToClearAndItsTripIsRemembered(): void
    {
        $exchange = new Psr7Exchange(new Request('GET', 'http://example.com/'));
        self::assertFalse((new Transfer(TransferSpec::of('GET', 'http://example.com/', true, []), $exchange))->usesCallbacks());
        $transfer = new Transfer(TransferSpec::of('GET', 'http://example.com/', true, [\CURLOPT_XFERINFOFUNCTION => new ReadTimeout(1.0)]), $exchange);
        self::assertTrue($transfer->usesCallbacks(), 'its closure is cleared before the handle is reset');
        self::assertFalse($transfer->hasReadTimedOut());

        $transfer->readTimedOut();

        self::assertTrue($transfer->hasReadTimedOut());
    }

    private static function feed(Transfer $transfer, string ...$lines): void
    {
        foreach ($lines as $line) {
            $transfer->receiveHeaderLine($line);
        }
    }

    /** @param array<int, mixed> $curl */
    private static function transfer(string $method = 'GET', array $curl = []): Transfer
    {
        $request = new Request($method, 'http://example.com/');

        return new Transfer(TransferSpec::of($method, 'http://example.com/', true, $curl, ResponseSink::Streamed), new Psr7Exchange($request));
    }
}
