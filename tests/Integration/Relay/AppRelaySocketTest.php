<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\App\RelayConnection;
use WarmHttp\Relay\App\RelaySocket;

/**
 * dispatch()'s hand-off reads the relay's final answer from the kept socket, raw bytes written
 * by a listening unix socket in this process: interim answers are skipped, and the socket is
 * kept for the next exchange only when the answer was framed by its Content-Length, did not
 * close the connection and nothing came past it.
 */
final class AppRelaySocketTest extends TestCase
{
    private PrivateRelaySocket $relay;

    protected function setUp(): void
    {
        $this->relay = PrivateRelaySocket::listen();
    }

    protected function tearDown(): void
    {
        $this->relay->close();
    }

    /** @return iterable<string, array{string, array{int, string}, bool}> */
    public static function answers(): iterable
    {
        yield 'a 100 Continue, then the 202' => ["HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n", [202, ''], true];
        yield 'bytes past the answer' => ["HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\nHTTP/1.1 2", [202, ''], false];
        yield 'an answer that closes the connection' => ["HTTP/1.1 503 Service Unavailable\r\nX-WarmHttp-Error: the spool is full\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", [503, 'the spool is full'], false];
        yield 'an answer without a Content-Length' => ["HTTP/1.1 202 Accepted\r\n\r\n", [202, ''], false];
        yield 'a body by its Content-Length' => ["HTTP/1.1 400 Bad Request\r\nContent-Length: 8\r\n\r\nbad head", [400, 'bad head'], true];
    }

    /** @param array{int, string} $expected */
    #[DataProvider('answers')]
    public function testTheFinalAnswerIsReadAndTheSocketKeptOnlyWhenClean(string $answer, array $expected, bool $kept): void
    {
        $address = $this->relay->address();
        $connection = RelayConnection::to($address);
        $connection->take(1.0);
        $connection->claim();
        $connection->settle();
        $relay = $this->relay->accept();
        fwrite($relay, $answer); // waits in the socket for the exchange's read

        self::assertSame($expected, (new RelaySocket($address, 1.0))->exchange("POST /x HTTP/1.1\r\nContent-Length: 0\r\n\r\n"));
        $connection->take(1.0);
        self::assertSame($kept, !$connection->opened(), $kept ? 'the same connection for the next exchange' : 'a new connection for the next exchange');
        $connection->drop();
    }
}
