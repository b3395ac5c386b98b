<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Internal;

use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\BodyBuffer;

final class BodyBufferTest extends TestCase
{
    public function testHandsOutWhatCurlWroteInOrder(): void
    {
        $buffer = new BodyBuffer();
        self::assertFalse($buffer->isReady());

        self::assertSame(5, $buffer->write('hello'));
        self::assertSame(6, $buffer->write(' world'));

        self::assertTrue($buffer->isReady());
        self::assertSame(11, $buffer->buffered());
        self::assertSame('hel', $buffer->take(3));
        self::assertSame('lo world', $buffer->take(100));
        self::assertSame(11, $buffer->received());
        self::assertFalse($buffer->isReady());
    }

    public function testIsDrainedOnceCompleteAndEverythingTaken(): void
    {
        $buffer = new BodyBuffer();
        $buffer->write('abc');
        $buffer->finish(null);

        self::assertTrue($buffer->isComplete());
        self::assertFalse($buffer->isDrained());
        $buffer->take(3);
        self::assertTrue($buffer->isDrained());
        self::assertTrue($buffer->isReady());
    }

    public function testAFailureShowsOnlyAfterTheBytesBeforeItWereTaken(): void
    {
        $buffer = new BodyBuffer();
        $buffer->write('partial');
        $failure = new \RuntimeException('reset');
        $buffer->finish($failure);

        self::assertNull($buffer->failure());
        $buffer->take(7);
        self::assertSame($failure, $buffer->failure());
    }

    public function testPausesTheTransferWhenTheReaderFallsBehind(): void
    {
        $buffer = new BodyBuffer();
        $buffer->write(str_repeat('x', 1048576));

        self::assertSame(\CURL_WRITEFUNC_PAUSE, $buffer->write('more'));
        self::assertSame(1048576, $buffer->received());
    }
}
