<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\App\RelayAddress;
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
    private string $dir;

    /** @var resource */
    private $server;

    protected function setUp(): void
    {
        $this->dir = sys_get_temp_dir() . '/warmhttp-socket-' . getmypid() . '-' . bin2hex(random_bytes(4));
        mkdir($this->dir, 0700);
        $server = stream_socket_server('unix://' . $this->dir . '/relay.sock', $errno, $errstr);
        self::assertNotFalse($server, (string) $errstr);
        $this->server = $server;
    }

    protected function tearDown(): void
    {
        fclose($this->server);
        @unlink($this->dir . '/relay.sock');
        @rmdir($this->dir);
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
        $address = RelayAddress::parse('unix://' . $this->dir . '/relay.sock');
        $connection = RelayConnection::to($address);
        $connection->take(1.0);
        $connection->claim();
        $connection->settle();
        $relay = stream_socket_accept($this->server, 1.0);
        self::assertNotFalse($relay);
        fwrite($relay, $answer); // waits in the socket for the exchange's read

        self::assertSame($expected, (new RelaySocket($address, 1.0))->exchange("POST /x HTTP/1.1\r\nContent-Length: 0\r\n\r\n"));
        $connection->take(1.0);
        self::assertSame($kept, !$connection->opened(), $kept ? 'the same connection for the next exchange' : 'a new connection for the next exchange');
        $connection->drop();
    }
}
