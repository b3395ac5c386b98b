<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\App;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\FailureKind;
use WarmHttp\Relay\App\HopClock;
use WarmHttp\Relay\App\HopFailure;
use WarmHttp\Relay\App\SyncAnswerReader;

/** The relay's answer read from one end of a socket pair, the bytes written to the other. */
final class SyncAnswerReaderTest extends TestCase
{
    /** @return iterable<string, array{string, string, bool}> answer bytes, body read, reusable */
    public static function framings(): iterable
    {
        yield 'Content-Length' => ["HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", 'hello', true];
        yield 'Content-Length in lower case, tabs before it' => ["HTTP/1.1 200 OK\r\ncontent-length:\t 5\r\n\r\nhello", 'hello', true];
        yield 'Content-Length without digits, then one with' => ["HTTP/1.1 200 OK\r\nContent-Length: x\r\nContent-Length: 2\r\n\r\nok", 'ok', true];
        yield 'Content-Length 0' => ["HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", '', true];
        yield 'chunked, with trailer' => ["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n1\r\n!\r\n0\r\nX-Trailer: t\r\n\r\n", 'hello!', true];
        yield 'interim heads skipped' => ["HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", 'ok', true];
        yield 'Connection: close' => ["HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Length: 3\r\n\r\nbad", 'bad', false];
        yield 'more bytes than its Content-Length' => ["HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokay", 'ok', false];
        yield 'until closed' => ["HTTP/1.1 200 OK\r\n\r\nall of it", 'all of it', false];
    }

    #[DataProvider('framings')]
    public function testReadsTheBodyByItsFraming(string $answer, string $body, bool $reusable): void
    {
        [$reader, $relay] = self::readerFor($answer, close: !$reusable);

        $head = $reader->head();
        $read = '';
        $reader->body($head, false, static function (string $piece) use (&$read): void {
            $read .= $piece;
        });

        self::assertMatchesRegularExpression('#^HTTP/1\.1 [2-5]\d\d #', $head);
        self::assertStringEndsWith("\r\n\r\n", $head);
        self::assertSame($body, $read);
        self::assertSame($reusable, $reader->reusable());
        fclose($relay);
    }

    /** bodyBytes(): the same body in one string, for the kept stream's answers without SyncBody. */
    #[DataProvider('framings')]
    public function testReadsTheWholeBodyAtOnce(string $answer, string $body, bool $reusable): void
    {
        [$reader, $relay] = self::readerFor($answer, close: !$reusable);

        self::assertSame($body, $reader->bodyBytes($reader->head(), false));
        self::assertSame($reusable, $reader->reusable());
        fclose($relay);
        [$reader, $relay] = self::readerFor($answer, close: !$reusable);
        self::assertSame('', $reader->bodyBytes($reader->head(), true));
        fclose($relay);
    }

    public function testABodylessAnswerReadsNoBody(): void
    {
        [$reader, $relay] = self::readerFor("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n");

        $reader->body($reader->head(), true, static fn(string $piece) => self::fail('no body'));

        self::assertTrue($reader->reusable());
        fclose($relay);
    }

    /** @return iterable<string, array{string, int, string, bool}> */
    public static function cutOff(): iterable
    {
        yield 'nothing' => ['', \CURLE_GOT_NOTHING, 'Empty reply from server', true];
        yield 'mid-head' => ["HTTP/1.1 200 OK\r\nContent-Le", \CURLE_RECV_ERROR, 'Recv failure', false];
        yield 'short Content-Length' => ["HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhel", \CURLE_PARTIAL_FILE, 'transfer closed with 7 bytes remaining to read', false];
        yield 'chunked without its end' => ["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n", \CURLE_PARTIAL_FILE, 'transfer closed with outstanding read data remaining', false];
        yield 'bad chunk size' => ["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", \CURLE_RECV_ERROR, 'hexadecimal', false];
    }

    /** A connection that ends early is the curl hop's error for it; nothing read means unanswered. */
    #[DataProvider('cutOff')]
    public function testAnAnswerCutOffIsTheCurlHopsError(string $answer, int $errno, string $words, bool $unanswered): void
    {
        [$reader, $relay] = self::readerFor($answer, close: true);

        try {
            $reader->body($reader->head(), false, static function (string $piece): void {});
            self::fail('the answer is incomplete');
        } catch (HopFailure $e) {
            self::assertSame($errno, $e->failure->curlErrno);
            self::assertStringContainsString($words, $e->failure->what);
            self::assertSame($unanswered, $e->unanswered);
            self::assertFalse($reader->reusable());
        }
        fclose($relay);
    }

    public function testASilentRelayIsTheReadTimeout(): void
    {
        [$reader, $relay] = self::readerFor('', close: false, clock: new HopClock(10.0, 0.05));

        try {
            $reader->head();
            self::fail('nothing came');
        } catch (HopFailure $e) {
            self::assertSame(FailureKind::Timeout, $e->failure->kind);
            self::assertStringStartsWith('no byte arrived for 0.05 s, the "read_timeout" option', $e->failure->what);
        }
        fclose($relay);
    }

    /** @return array{SyncAnswerReader, resource} */
    private static function readerFor(string $answer, bool $close = false, ?HopClock $clock = null): array
    {
        $pair = stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, \STREAM_IPPROTO_IP);
        self::assertNotFalse($pair);
        [$app, $relay] = $pair;
        fwrite($relay, $answer);
        if ($close) {
            fclose($relay);
            $relay = fopen('php://memory', 'r');
            self::assertNotFalse($relay);
        }

        return [new SyncAnswerReader($app, $clock ?? new HopClock(5.0, 0.0)), $relay];
    }
}
