<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Internal;

use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\CappedBuffer;

/** A curl handle that never runs: its header size is 0, so every byte written counts as body. */
final class CappedBufferTest extends TestCase
{
    public function testCollectsChunksUpToTheCap(): void
    {
        $buffer = new CappedBuffer(10);
        $handle = curl_init();

        self::assertSame(4, $buffer->write($handle, 'abcd'));
        self::assertSame(6, $buffer->write($handle, 'efghij'));
        self::assertFalse($buffer->exceeded());
        self::assertSame('abcdefghij', $buffer->contents());
    }

    public function testAbortsTheTransferPastTheCap(): void
    {
        $buffer = new CappedBuffer(10);
        $handle = curl_init();
        $buffer->write($handle, 'abcdefghij');

        self::assertSame(0, $buffer->write($handle, 'k'));
        self::assertTrue($buffer->exceeded());
    }

    public function testClearForgetsAFailedAttempt(): void
    {
        $buffer = new CappedBuffer(3);
        $handle = curl_init();
        $buffer->write($handle, 'abcdef');

        $buffer->clear();

        self::assertFalse($buffer->exceeded());
        self::assertSame('', $buffer->contents());
        self::assertSame(3, $buffer->write($handle, 'xyz'));
    }
}
