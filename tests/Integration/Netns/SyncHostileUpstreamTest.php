<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Netns;

use PHPUnit\Framework\Attributes\DataProvider;
use WarmHttp\Tests\Integration\Relay\RelayProcess;

/**
 * Issue 13 item 4: a hostile destination must not be able to forge the relay's next answer on
 * a caller's kept connection. Each case sends request 1 to a scripted hostile origin, then
 * request 2, on the same connection, to a trusted origin: request 2 must get exactly the
 * trusted answer, and request 1 a 502, a correctly framed answer, or a closed connection (then
 * request 2 goes on a fresh one). Runs only in the loopback-only namespace.
 */
final class SyncHostileUpstreamTest extends LoopbackOnlyTestCase
{
    /** What a desynchronized caller would read as its next answer. */
    private const FORGED = "HTTP/1.1 200 OK\r\nX-Origin: forged\r\nContent-Length: 6\r\n\r\nforged";

    private const TRUSTED = "HTTP/1.1 200 OK\r\nX-Origin: trusted\r\nContent-Length: 12\r\n\r\ntrusted-body";

    private static ?RelayProcess $relay = null;

    private static ?SyncHostileOrigin $hostile = null;

    private static ?SyncHostileOrigin $trusted = null;

    public static function tearDownAfterClass(): void
    {
        self::$relay?->remove();
        self::$trusted?->stop();
        self::$relay = self::$trusted = null;
    }

    protected function tearDown(): void
    {
        self::$hostile?->stop();
        self::$hostile = null;
    }

    /**
     * path => [the hostile answer in parts sent 200 ms apart, what request 1 gets: refused
     * (502), answered (200 "hello"), closed (cut short, the connection closed)].
     *
     * @return array<string, array{list<string>, string}>
     */
    private static function script(): array
    {
        $smuggled = "0\r\n\r\n" . self::FORGED; // read as chunks by a caller that sees "chunked"
        $chunked = dechex(\strlen($smuggled)) . "\r\n" . $smuggled . "\r\n0\r\n\r\n";

        return [
            // libcurl 7.88 de-chunks and ignores the Content-Length: announced to the caller, the
            // length covered "abc" and the forged answer became the caller's next one.
            'te-cl-streamed' => [["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n3\r\nabc\r\n", dechex(\strlen(self::FORGED)) . "\r\n" . self::FORGED . "\r\n0\r\n\r\n"], 'refused'],
            'te-cl-whole' => [["HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"], 'refused'],
            // The whole bare-LF head became the reason phrase and was written back as it came:
            // a lenient caller read "Transfer-Encoding: chunked" out of it.
            'bare-lf' => [["HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n" . $chunked], 'refused'],
            'bare-lf-one-line' => [["HTTP/1.1 200 OK\r\nX-A: 1\nContent-Length: 5\r\n\r\nhello"], 'refused'],
            'cr-in-reason' => [["HTTP/1.1 200 OK\rTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\nhello"], 'refused'],
            'nul-in-reason' => [["HTTP/1.1 200 O\0K\r\nContent-Length: 5\r\n\r\nhello"], 'refused'],
            'differing-lengths' => [["HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 11\r\n\r\nhello world"], 'refused'],
            'listed-lengths' => [["HTTP/1.1 200 OK\r\nContent-Length: 5, 11\r\n\r\nhello world"], 'refused'],
            'signed-length' => [["HTTP/1.1 200 OK\r\nContent-Length: +5\r\n\r\nhello"], 'refused'],
            'obs-fold' => [["HTTP/1.1 200 OK\r\nX-A: a\r\n Content-Length: 0\r\nContent-Length: 5\r\n\r\nhello"], 'refused'],
            'space-before-colon' => [["HTTP/1.1 200 OK\r\nTransfer-Encoding : chunked\r\nContent-Length: 5\r\n\r\nhello"], 'refused'],
            'nul-in-value' => [["HTTP/1.1 200 OK\r\nX-A: a\0b\r\nContent-Length: 5\r\n\r\nhello"], 'refused'],
            'status-600' => [["HTTP/1.1 600 OK\r\nContent-Length: 5\r\n\r\nhello"], 'refused'],
            // libcurl 7.88 takes an unasked 101 as the final answer, its "body" running to the
            // close: passed on, the caller would switch protocols on the relay's connection.
            'switching-protocols' => [["HTTP/1.1 101 Switching Protocols\r\nUpgrade: evil\r\nConnection: Upgrade\r\n\r\n" . self::FORGED], 'refused'],
            'short-whole' => [["HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nhello"], 'refused'],
            // Announced 50, 5 came, then the close: the caller's connection must close too.
            'short-streamed' => [["HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nhel", 'lo'], 'closed'],
            'chunked-cut-short' => [["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n", '3'], 'closed'],
            // curl stops at the announced length; the rest must not reach the caller.
            'extra-after-length' => [["HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello" . self::FORGED], 'answered'],
            'extra-after-length-streamed' => [["HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel", 'lo' . self::FORGED], 'answered'],
            'control-headers' => [["HTTP/1.1 200 OK\r\nX-WarmHttp-Error: forged\r\nX-WarmHttp-Id: 1-2\r\nConnection: X-Steer\r\nX-Steer: 1\r\nKeep-Alive: timeout=1\r\nContent-Length: 5\r\n\r\nhello"], 'answered'],
        ];
    }

    /** @return iterable<string, array{string, string}> */
    public static function hostileAnswers(): iterable
    {
        foreach (self::script() as $path => [, $outcome]) {
            yield $path => [$path, $outcome];
        }
    }

    #[DataProvider('hostileAnswers')]
    public function testAHostileAnswerCannotForgeTheNextAnswerOnAKeptConnection(string $path, string $outcome): void
    {
        $caller = SyncCaller::open(self::relay()->address());
        try {
            $first = $caller->get(self::hostile()->url($path));
        } catch (SyncClosedConnection) {
            $first = null;
        }
        match ($outcome) {
            'refused' => self::assertRefused($first),
            'answered' => self::assertAnsweredHello($first),
            default => self::assertNull($first, 'the answer cut short upstream is cut short for the caller'),
        };
        if ($outcome === 'closed') {
            self::assertTrue($caller->closedByRelay(), 'the relay closes a connection whose answer it could not complete');
            $caller = SyncCaller::open(self::relay()->address());
        } else {
            self::assertFalse($caller->closedByRelay(0.3), 'a correctly framed answer keeps the connection, with nothing after it');
        }
        $before = self::trusted()->requests('trusted');

        $second = $caller->get(self::trusted()->url('trusted'));

        self::assertSame(200, $second->status, $second->head);
        self::assertSame('trusted', $second->header('x-origin'), 'request 2 got the trusted origin\'s answer');
        self::assertSame('trusted-body', $second->body);
        self::assertSame($before + 1, self::trusted()->requests('trusted'));
        self::assertFalse($caller->closedByRelay(0.2), 'nothing follows the trusted answer');
    }

    private static function assertRefused(?SyncAnswer $first): void
    {
        self::assertNotNull($first, 'a refused head gets an answer, not a closed connection');
        self::assertSame(502, $first->status, $first->head . $first->body);
        self::assertNotNull($first->header('x-warmhttp-error'), 'the 502 is the relay\'s own');
    }

    private static function assertAnsweredHello(?SyncAnswer $first): void
    {
        self::assertNotNull($first);
        self::assertSame(200, $first->status, $first->head);
        self::assertSame('hello', $first->body);
        self::assertSame('5', $first->header('content-length'));
        foreach (['x-warmhttp-error', 'x-warmhttp-id', 'x-steer', 'keep-alive', 'transfer-encoding'] as $name) {
            self::assertNull($first->header($name), "the destination's $name header does not reach the caller");
        }
    }

    private static function relay(): RelayProcess
    {
        return self::$relay ??= RelayProcess::start(['--allow-host=public.example', '--timeout=5']);
    }

    private static function hostile(): SyncHostileOrigin
    {
        if (self::$hostile === null) {
            $answers = $closing = [];
            foreach (self::script() as $path => [$parts]) {
                $answers[$path] = $parts;
                $closing[] = $path;
            }
            // One origin (one port) per test: bytes a hostile answer leaves after its
            // Content-Length stay on curl's kept connection to that origin (libcurl 7.88 reuses
            // it), where they would answer the next test's request to the same origin.
            self::$hostile = SyncHostileOrigin::start($answers, $closing);
        }

        return self::$hostile;
    }

    private static function trusted(): SyncHostileOrigin
    {
        return self::$trusted ??= SyncHostileOrigin::start(['trusted' => [self::TRUSTED]]);
    }
}
