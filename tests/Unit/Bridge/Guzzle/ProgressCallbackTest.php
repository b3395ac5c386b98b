<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Bridge\Guzzle;

use PHPUnit\Framework\TestCase;
use WarmHttp\Bridge\Guzzle\ProgressCallback;

final class ProgressCallbackTest extends TestCase
{
    public function testPassesTheNumbersOnAndKeepsTheFirstExceptionItThrows(): void
    {
        $calls = [];
        $first = new \RuntimeException('first');
        $callback = new ProgressCallback(static function (int ...$numbers) use (&$calls, $first): void {
            $calls[] = $numbers;
            if (\count($calls) > 1) {
                throw \count($calls) === 2 ? $first : new \LogicException('second');
            }
        });
        $callback(10, 1, 0, 0);
        self::assertNull(ProgressCallback::failureOf(['progress' => $callback]));

        foreach ([2, 3] as $downloaded) {
            try {
                $callback(10, $downloaded, 0, 0);
                self::fail('rethrown, so that the pool stops the transfer');
            } catch (\Throwable) {
            }
        }

        self::assertSame([[10, 1, 0, 0], [10, 2, 0, 0], [10, 3, 0, 0]], $calls);
        self::assertSame($first, ProgressCallback::failureOf(['progress' => $callback]));
        self::assertNull(ProgressCallback::failureOf(['progress' => 'strlen']));
    }
}
