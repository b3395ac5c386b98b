<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Front;

use Nyholm\Psr7\Response;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\BodyBuffer;
use WarmHttp\Relay\Front\BodyFraming;
use WarmHttp\Relay\Front\UnframeableAnswer;
use WarmHttp\Relay\Wire\AnswerHead;
use WarmHttp\Relay\Wire\WireRequest;

final class BodyFramingTest extends TestCase
{
    public function testAWholeBodyIsSentWithItsLength(): void
    {
        $framing = self::choose(200, ['Content-Length' => '999'], complete: true, buffered: 'hello');

        self::assertTrue($framing->isWhole());
        self::assertSame([['Content-Length', '5']], $framing->headers());
        self::assertSame('hello', $framing->frame('hello'));
        self::assertSame('', $framing->trailer());
    }

    public function testAStreamedBodyWithAnAnnouncedLengthKeepsIt(): void
    {
        $framing = self::choose(200, ['Content-Length' => '1000']);

        self::assertFalse($framing->isWhole());
        self::assertSame([['Content-Length', '1000']], $framing->headers());
        self::assertSame('part', $framing->frame('part'));
        self::assertFalse($framing->closesConnection());
    }

    public function testAStreamedBodyOfUnknownLengthIsChunked(): void
    {
        $framing = self::choose(200, []);

        self::assertSame([['Transfer-Encoding', 'chunked']], $framing->headers());
        self::assertSame("a\r\n0123456789\r\n", $framing->frame('0123456789'));
        self::assertSame('', $framing->frame(''));
        self::assertSame("0\r\n\r\n", $framing->trailer());
    }

    public function testAnAnnouncedLengthIsEnforcedNeverWrittenPast(): void
    {
        $framing = self::choose(200, ['Content-Length' => '10']);

        self::assertSame('0123456', $framing->frame('0123456'));
        self::assertFalse($framing->isSatisfied());
        self::assertSame('789', $framing->frame('789FORGED'));
        self::assertTrue($framing->overran());
        self::assertTrue($framing->isSatisfied());
        self::assertSame('', $framing->frame('more'));
    }

    public function testABodyShortOfItsAnnouncedLengthIsNotSatisfied(): void
    {
        $framing = self::choose(200, ['Content-Length' => '10']);
        $framing->frame('short');

        self::assertFalse($framing->isSatisfied());
        self::assertFalse($framing->overran());
    }

    /** @return iterable<string, array{array<string, string|list<string>>, string}> */
    public static function ambiguousHeads(): iterable
    {
        $conflict = 'the destination answered with an invalid or conflicting Content-Length';
        yield 'Transfer-Encoding beside Content-Length' => [['Content-Length' => '5', 'Transfer-Encoding' => 'chunked'], 'both Transfer-Encoding and Content-Length'];
        yield 'two differing lengths' => [['Content-Length' => ['5', '6']], $conflict];
        yield 'a list of differing lengths' => [['Content-Length' => '5, 6'], $conflict];
        yield 'a sign' => [['Content-Length' => '+5'], $conflict];
        yield 'negative' => [['Content-Length' => '-5'], $conflict];
        yield 'empty' => [['Content-Length' => ''], $conflict];
        yield 'too large for an integer' => [['Content-Length' => '99999999999999999999'], $conflict];
    }

    /** @param array<string, string|list<string>> $headers */
    #[DataProvider('ambiguousHeads')]
    public function testRefusesAHeadWhoseLengthIsAmbiguous(array $headers, string $message): void
    {
        $this->expectException(UnframeableAnswer::class);
        $this->expectExceptionMessage($message);

        self::choose(200, $headers);
    }

    public function testRepeatedEqualLengthsAreOneLength(): void
    {
        self::assertSame([['Content-Length', '5']], self::choose(200, ['Content-Length' => ['5', '05, 5']])->headers());
    }

    public function testRefusesAnInterimStatusAsTheFinalAnswer(): void
    {
        $this->expectException(UnframeableAnswer::class);
        $this->expectExceptionMessage('the destination answered 101 as its final answer');

        self::choose(101, []);
    }

    public function testAnHttp10CallerGetsABodyEndedByClosing(): void
    {
        $framing = self::choose(200, [], http10: true);

        self::assertTrue($framing->closesConnection());
        self::assertSame([['Connection', 'close']], $framing->headers());
        self::assertSame('raw', $framing->frame('raw'));
        self::assertSame('', $framing->trailer());
    }

    /** @return iterable<string, array{int, string, ?string, list<array{string, string}>}> */
    public static function bodilessAnswers(): iterable
    {
        yield '204' => [204, 'GET', '10', []];
        yield '304 keeps the representation length' => [304, 'GET', '10', [['Content-Length', '10']]];
        yield 'HEAD keeps the representation length' => [200, 'HEAD', '10', [['Content-Length', '10']]];
        yield 'HEAD without a length' => [200, 'HEAD', null, []];
    }

    /** @param list<array{string, string}> $headers */
    #[DataProvider('bodilessAnswers')]
    public function testSendsNoBodyWhereHttpHasNone(int $status, string $method, ?string $length, array $headers): void
    {
        $framing = self::choose($status, $length === null ? [] : ['Content-Length' => $length], method: $method);

        self::assertSame($headers, $framing->headers());
        self::assertSame('', $framing->frame('ignored'));
        self::assertSame('', $framing->trailer());
    }

    /** @param array<string, string|list<string>> $headers */
    private static function choose(int $status, array $headers, bool $complete = false, string $buffered = '', bool $http10 = false, string $method = 'GET'): BodyFraming
    {
        $body = new BodyBuffer();
        $body->write($buffered);
        if ($complete) {
            $body->finish(null);
        }

        return BodyFraming::choose($status, AnswerHead::fromHeaders((new Response($status, $headers))->getHeaders()), new WireRequest($method, 'https://a.example/', [], '', $http10), $body);
    }
}
