<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Storage;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Storage\JournalPosition;

final class JournalPositionTest extends TestCase
{
    /** @return iterable<string, array{int, int, int, int, bool}> */
    public static function pairs(): iterable
    {
        yield 'earlier offset, same segment' => [1, 10, 1, 20, true];
        yield 'earlier segment, later offset' => [1, 900, 2, 0, true];
        yield 'same position' => [2, 5, 2, 5, false];
        yield 'later offset' => [2, 6, 2, 5, false];
        yield 'later segment' => [3, 0, 2, 900, false];
    }

    #[DataProvider('pairs')]
    public function testOrdersBySegmentThenOffset(int $segment, int $offset, int $otherSegment, int $otherOffset, bool $before): void
    {
        self::assertSame($before, (new JournalPosition($segment, $offset))->isBefore(new JournalPosition($otherSegment, $otherOffset)));
    }
}
