<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Front;

use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\BodyBuffer;
use WarmHttp\Internal\ResponseParser;
use WarmHttp\Internal\ResponseSink;
use WarmHttp\Internal\Transfer;
use WarmHttp\Internal\TransferSpec;
use WarmHttp\Relay\Front\CallerConnection;
use WarmHttp\Relay\Front\StreamedAnswer;
use WarmHttp\Relay\Outbound\UpstreamExchange;
use WarmHttp\Relay\Wire\WireRequest;

/**
 * A sync answer written to a real socket pair, its transfer settled by hand (no curl): the cases
 * no HTTP/1.1 origin can produce through libcurl, which never delivers past a Content-Length.
 */
final class StreamedAnswerTest extends TestCase
{
    /** @var resource|null the caller's end */
    private $caller;

    private CallerConnection $connection;

    protected function setUp(): void
    {
        $pair = stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, \STREAM_IPPROTO_IP);
        self::assertNotFalse($pair);
        [$relaySide, $this->caller] = $pair;
        $this->connection = new CallerConnection($relaySide, false, hrtime(true) / 1e9);
    }

    protected function tearDown(): void
    {
        $this->connection->close();
        if (\is_resource($this->caller)) {
            fclose($this->caller);
        }
    }

    public function testMoreBytesThanAnnouncedAreNeverWrittenAndCloseTheConnection(): void
    {
        [$answer, $body, $finished] = $this->answer("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n");
        $body->write('hel');
        $answer->start();
        $body->write("loHTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nforged");
        $answer->pump();

        self::assertSame("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", $this->received());
        self::assertTrue($this->connection->closing, 'the connection closes after the announced length');
        self::assertSame(1, $finished->count);
    }

    public function testFewerBytesThanAnnouncedCloseTheConnection(): void
    {
        [$answer, $body, $finished] = $this->answer("HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n");
        $body->write('hello');
        $answer->start();
        $body->finish(null); // curl said done: an HTTP/2 stream may end short of its length
        $answer->pump();

        self::assertSame("HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nhello", $this->received());
        self::assertTrue($this->connection->closing);
        self::assertSame(1, $finished->count);
    }

    public function testExactlyTheAnnouncedLengthKeepsTheConnection(): void
    {
        [$answer, $body, $finished] = $this->answer("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n");
        $body->write('hel');
        $answer->start();
        $body->write('lo');
        $body->finish(null);
        $answer->pump();

        self::assertSame("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", $this->received());
        self::assertFalse($this->connection->closing);
        self::assertSame(1, $finished->count);
    }

    public function testAnAmbiguousHeadIsA502OnAConnectionThatStays(): void
    {
        [$answer, $body, $finished] = $this->answer("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n");
        $body->write('abc');
        $body->finish(null);
        $answer->start();

        $received = $this->received();
        self::assertStringStartsWith("HTTP/1.1 502 Bad Gateway\r\n", $received);
        self::assertStringContainsString("X-WarmHttp-Error: the destination answered with both Transfer-Encoding and Content-Length\r\n", $received);
        self::assertStringNotContainsString('abc', $received);
        self::assertFalse($this->connection->closing);
        self::assertSame(1, $finished->count);
    }

    /** @return array{StreamedAnswer, BodyBuffer, \stdClass} */
    private function answer(string $head): array
    {
        $transfer = new Transfer(new TransferSpec('GET', 'http://a.example/', 'http', 'a.example', 80, true, [], ResponseSink::Streamed), new UpstreamExchange());
        $body = $transfer->streamedBody;
        self::assertNotNull($body);
        $finished = new \stdClass();
        $finished->count = 0;
        $answer = new StreamedAnswer($transfer, $body, $this->connection, new WireRequest('GET', 'http://a.example/', [], '', false), static function () use ($finished): void {
            ++$finished->count;
        });
        $transfer->settle(ResponseParser::parse($head, \strlen($head), []));

        return [$answer, $body, $finished];
    }

    private function received(): string
    {
        \assert(\is_resource($this->caller));
        stream_set_blocking($this->caller, false);

        return (string) stream_get_contents($this->caller);
    }
}
