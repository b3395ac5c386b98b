<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Wire;

use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\MalformedResponse;
use WarmHttp\Internal\ResponseParser;
use WarmHttp\Relay\Wire\AnswerHead;

final class AnswerHeadTest extends TestCase
{
    private const HEAD = "HTTP/1.1 100 Continue\r\nX-Early: 1\r\n\r\n"
        . "HTTP/1.1 200 OK\r\nServer: nginx\r\nContent-Length: 5\r\nConnection: keep-alive, X-Hop\r\nX-Hop: gone\r\n"
        . "Set-Cookie: a=1\r\nKeep-Alive: timeout=5\r\nX-WarmHttp-Mode: async\r\nProxy-Authenticate: Basic\r\nSet-Cookie: b=2\r\nX-Spaced:  v  \r\n\r\n";

    public function testReadsTheLastBlockAndKeepsOnlyWhatTheCallerMaySee(): void
    {
        $head = AnswerHead::received(self::HEAD);

        self::assertSame([['Server', 'nginx'], ['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2'], ['X-Spaced', 'v']], $head->lines());
        self::assertSame(['5'], $head->contentLengths);
        self::assertFalse($head->transferEncoding);
    }

    public function testGivesTheSameLinesAsThePsr7Route(): void
    {
        $raw = "HTTP/1.1 200 OK\r\nServer: nginx\r\nDate: Mon, 23 Nov 2026 17:01:00 GMT\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nVary: a\r\nVary: b\r\n\r\n";
        /** @var array<string, list<string>> $headers */
        $headers = ResponseParser::parse($raw, \strlen($raw), [])->getHeaders();

        $raw = AnswerHead::received($raw);
        $psr7 = AnswerHead::fromHeaders($headers);

        self::assertSame($psr7->lines(), $raw->lines());
        self::assertTrue($raw->transferEncoding);
        self::assertSame([], $raw->contentLengths);
    }

    public function testAHeadReceivedAgainIsTheOneReadBeforeAndAnotherIsReadAnew(): void
    {
        $raw = "HTTP/2 200 \r\nserver: nginx\r\ndate: Tue, 01 Dec 2026 21:00:00 GMT\r\ncontent-length: 2\r\n\r\n";
        $first = AnswerHead::received($raw);
        $later = AnswerHead::received(str_replace('21:00:00', '21:00:01', $raw));

        self::assertSame($first, AnswerHead::received($raw));
        self::assertNotSame($first, $later);
        self::assertSame([['server', 'nginx'], ['date', 'Tue, 01 Dec 2026 21:00:01 GMT']], $later->lines());
        self::assertSame(['2'], $later->contentLengths);
    }

    public function testAMalformedHeadIsRefusedEveryTime(): void
    {
        for ($i = 0; $i < 2; ++$i) {
            try {
                AnswerHead::received("HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n");
                self::fail('accepted a malformed head');
            } catch (MalformedResponse $e) {
                self::assertStringContainsString('malformed header line', $e->getMessage());
            }
        }
    }

    public function testCollectsEveryContentLengthForBodyFramingToJudge(): void
    {
        $head = AnswerHead::received("HTTP/1.1 200 OK\r\nContent-Length: 5\r\ncontent-length: 6\r\n\r\n");

        self::assertSame(['5', '6'], $head->contentLengths);
        self::assertSame([], $head->lines());
    }

    public function testAHeadWithoutFieldsHasNoLines(): void
    {
        self::assertSame([], AnswerHead::received("HTTP/1.1 204 No Content\r\n\r\n")->lines());
    }

    public function testABlockThatFailsTheCheckIsRefusedNotFiltered(): void
    {
        // Nothing of such a head reaches the caller: the relay answers 502 in its place.
        $this->expectException(MalformedResponse::class);
        AnswerHead::received("HTTP/1.1 200 OK\r\nX-Good: 1\r\nX Bad: 2\r\nX-Nul: a\0b\r\nNoColon\r\nContent-Length: 3\r\n\r\n");
    }

    public function testTheRegexPassDropsWhatThePerLinePassDrops(): void
    {
        $names = ['Connection', 'Keep-Alive', 'TE', 'Trailer', 'Transfer-Encoding', 'Upgrade', 'Content-Length', 'Expect', 'Host', 'Proxy-Anything', 'X-WarmHttp-Error', 'X-Custom', 'Te-Not', 'Hostname', 'X-Kept'];
        $raw = "HTTP/1.1 200 OK\r\n";
        $fields = [];
        foreach ($names as $i => $name) {
            $value = $name === 'Connection' ? 'keep-alive, X-Custom' : 'v' . $i;
            $raw .= $name . ': ' . $value . "\r\n";
            $fields[$name] = [$value];
        }
        $raw .= "\r\n";

        $received = AnswerHead::received($raw);
        $fromHeaders = AnswerHead::fromHeaders($fields);

        self::assertSame([['Te-Not', 'v12'], ['Hostname', 'v13'], ['X-Kept', 'v14']], $received->lines());
        self::assertSame($fromHeaders->lines(), $received->lines());
        self::assertSame($fromHeaders->block, $received->block);
        self::assertSame([$fromHeaders->contentLengths, $fromHeaders->transferEncoding], [$received->contentLengths, $received->transferEncoding]);
    }
}
