<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

/**
 * The wire parser's refusals, as raw bytes on a real relay's socket: each malformed or
 * oversized request gets its status at once and its connection closed, and the relay keeps
 * serving. Every destination is loopback (localhost from /etc/hosts: no DNS query leaves the machine).
 */
final class RelayParserTest extends TestCase
{
    private const REFUSED = 'http://127.0.0.1:1/x';

    private const ALLOWED = 'http://localhost:1/x';

    private static ?RelayProcess $relay = null;

    public static function tearDownAfterClass(): void
    {
        self::$relay?->remove();
        self::$relay = null;
    }

    /** @return iterable<string, array{string, int, string}> */
    public static function refusals(): iterable
    {
        yield 'head over 64 KiB in one write' => ["GET /x HTTP/1.1\r\nX-A: " . str_repeat('a', 100_000) . "\r\n\r\n", 431, '64 KiB'];
        yield 'bare LF request' => ["GET /healthz HTTP/1.1\nHost: relay\n\n", 400, 'Bare LF'];
        yield 'bare LF after a CRLF line' => ["GET /healthz HTTP/1.1\r\nHost: relay\n\n", 400, 'Bare LF'];
        yield 'NUL in the target' => ["POST http://localhost:1/\x00x HTTP/1.1\r\nContent-Length: 0\r\n\r\n", 400, 'percent-encode'];
        yield 'escape in the target' => ["POST http://localhost:1/\x1B[2J HTTP/1.1\r\nContent-Length: 0\r\n\r\n", 400, 'percent-encode'];
        yield 'raw UTF-8 host' => ["POST http://\xE2\x93\x94vil.test/ HTTP/1.1\r\nContent-Length: 0\r\n\r\n", 400, 'percent-encode'];
        yield 'chunked on HTTP/1.0' => ["POST http://localhost:1/x HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", 400, 'HTTP/1.0'];
        yield 'space before a chunk size' => ["POST http://localhost:1/x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n 3\r\nabc\r\n0\r\n\r\n", 400, 'Malformed chunk size'];
        yield 'space after a chunk size' => ["POST http://localhost:1/x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3 \r\nabc\r\n0\r\n\r\n", 400, 'Malformed chunk size'];
        yield 'seventeen chunk extensions' => ["POST http://localhost:1/x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3" . str_repeat(';e', 17) . "\r\nabc\r\n0\r\n\r\n", 400, 'extensions'];
        yield 'too many trailers' => ["POST http://localhost:1/x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n" . str_repeat("X-T: 1\r\n", 65) . "\r\n", 431, 'trailer fields'];
        yield 'allowed destination, body over --max-body' => ['POST ' . self::ALLOWED . " HTTP/1.1\r\nContent-Length: 2048\r\n\r\n", 413, '--max-body=1024'];
        yield 'refused destination, body over --max-body' => ['POST ' . self::REFUSED . " HTTP/1.1\r\nContent-Length: 2048\r\n\r\n", 403, 'Refused destination'];
        yield 'refused destination, chunked body over --max-body' => ['POST ' . self::REFUSED . " HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n401\r\n", 403, 'Refused destination'];
        yield 'refused destination, sync, body over --max-body' => ['POST ' . self::REFUSED . " HTTP/1.1\r\nX-WarmHttp-Mode: sync\r\nX-WarmHttp-Guard: on\r\nContent-Length: 2048\r\n\r\n", 403, 'Refused destination'];
        yield 'unguarded sync (the Client\'s own policy), body over --max-body' => ['POST ' . self::REFUSED . " HTTP/1.1\r\nX-WarmHttp-Mode: sync\r\nContent-Length: 2048\r\n\r\n", 413, '--max-body=1024'];
        yield 'refused destination, head over 64 KiB' => ['POST ' . self::REFUSED . " HTTP/1.1\r\nX-A: " . str_repeat('a', 70_000), 403, 'Refused destination'];
    }

    #[DataProvider('refusals')]
    public function testIsRefusedAtOnceAndClosedAndTheRelayKeepsServing(string $bytes, int $status, string $inError): void
    {
        $caller = RelayFrontCaller::connect(self::relay()->address());
        $caller->send($bytes);
        $answer = $caller->answer(3.0);

        self::assertStringStartsWith("HTTP/1.1 $status ", $answer, 'answered at once, not left waiting');
        self::assertStringContainsString($inError, $answer);
        self::assertStringContainsString("Connection: close\r\n", $answer);
        self::assertTrue($caller->closedWithin(2.0), 'the connection is closed after the refusal');
        self::assertStringStartsWith('HTTP/1.1 200 ', self::relay()->raw("GET /healthz HTTP/1.1\r\n\r\n"), 'still serving');
    }

    public function testTwoHundredMegabytesOfTrailersAreCutOffAfterSixteenKilobytes(): void
    {
        $caller = RelayFrontCaller::connect(self::relay()->address());
        $caller->send("POST http://localhost:1/x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n");
        $line = 'X-T: ' . str_repeat('t', 1000) . "\r\n";
        $sent = 0;
        $deadline = microtime(true) + 10;
        // Offer trailers until the relay answers; it must not keep reading them.
        while ($sent < 200 << 20 && microtime(true) < $deadline) {
            $written = $caller->offer(str_repeat($line, 64));
            $sent += $written;
            if ($written === 0) {
                break;
            }
        }
        $answer = $caller->answer(3.0);

        self::assertStringStartsWith('HTTP/1.1 431 ', $answer);
        self::assertStringContainsString('trailers are larger than 16384 bytes', $answer);
        self::assertLessThan(8 << 20, $sent, 'the relay stopped reading long before 200 MiB');
    }

    private static function relay(): RelayProcess
    {
        return self::$relay ??= RelayProcess::start(['--allow-host=localhost', '--max-body=1024']);
    }
}
