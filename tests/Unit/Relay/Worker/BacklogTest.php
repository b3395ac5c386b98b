<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Worker;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Storage\SpooledRequest;
use WarmHttp\Relay\Worker\Backlog;

final class BacklogTest extends TestCase
{
    private const A = 'https://a.example:443';
    private const B = 'https://b.example:443';
    private const C = 'https://c.example:443';

    public function testStartsOldestFirstWithinAnOrigin(): void
    {
        $backlog = self::backlog([1 => self::A, 2 => self::A, 3 => self::A]);

        self::assertSame([1, 2, 3], self::drain($backlog, 10));
    }

    public function testOriginsTakeTurns(): void
    {
        $backlog = self::backlog([1 => self::A, 2 => self::A, 3 => self::A, 4 => self::B, 5 => self::C, 6 => self::C]);

        self::assertSame([1, 4, 5, 2, 6, 3], self::drain($backlog, 10));
        self::assertSame(0, $backlog->count());
    }

    public function testStartsNoMoreThanTheRoomAndKeepsTheRest(): void
    {
        $backlog = self::backlog([1 => self::A, 2 => self::B, 3 => self::A]);

        self::assertSame([1, 2], self::drain($backlog, 2));
        self::assertSame([3 => true], $backlog->ids());
        self::assertSame([3], self::drain($backlog, 2));
    }

    public function testAnOriginWithoutRoomWaitsWhileOthersGoOn(): void
    {
        $backlog = self::backlog([1 => self::A, 2 => self::A, 3 => self::B, 4 => self::B]);

        self::assertSame([3, 4], self::drain($backlog, 10, static fn(string $origin): bool => $origin !== self::A));
        self::assertSame(2, $backlog->count());
    }

    public function testAsksForRoomBeforeEachStart(): void
    {
        $backlog = self::backlog([1 => self::A, 2 => self::A, 3 => self::A]);
        /** @var \ArrayObject<int, int> $started */
        $started = new \ArrayObject();

        $count = $backlog->drain(
            10,
            static fn(): bool => $started->count() < 2,
            static function (SpooledRequest $request) use ($started): void {
                $started->append($request->id);
            },
        );

        self::assertSame(2, $count);
        self::assertSame([1, 2], $started->getArrayCopy());
    }

    public function testPassesEachRequestWithItsOrigin(): void
    {
        $backlog = self::backlog([1 => self::A, 2 => self::B]);
        $seen = [];

        $backlog->drain(10, static fn(): bool => true, static function (SpooledRequest $request, string $origin) use (&$seen): void {
            $seen[$request->id] = $origin;
        });

        self::assertSame([1 => self::A, 2 => self::B], $seen);
    }

    public function testIgnoresARequestItAlreadyHolds(): void
    {
        $backlog = self::backlog([1 => self::A]);

        self::assertTrue($backlog->push(self::request(1), self::A));
        self::assertSame([1], self::drain($backlog, 10));
    }

    public function testRefusesPastItsRequestCap(): void
    {
        $backlog = new Backlog(2);

        self::assertTrue($backlog->push(self::request(1), self::A));
        self::assertTrue($backlog->push(self::request(2), self::B));
        self::assertFalse($backlog->push(self::request(3), self::A));
        self::assertSame(2, $backlog->count());
    }

    public function testRefusesPastItsByteCapAndFreesTheBytesOnStart(): void
    {
        $backlog = new Backlog(100, 10);

        self::assertTrue($backlog->push(self::request(1, 6), self::A));
        self::assertFalse($backlog->push(self::request(2, 5), self::A));
        self::assertTrue($backlog->push(self::request(3, 4), self::A));

        self::drain($backlog, 2);

        self::assertTrue($backlog->push(self::request(2, 10), self::A));
    }

    public function testAnEmptyBacklogHoldsOneRequestOverItsByteCap(): void
    {
        $backlog = new Backlog(100, 10);

        self::assertTrue($backlog->push(self::request(1, 11), self::A), 'refused, it was refused on every look: never delivered');
        self::assertFalse($backlog->push(self::request(2, 1), self::A));
        self::assertSame([1], self::drain($backlog, 10));
    }

    public function testDrainingAnEmptyBacklogStartsNothing(): void
    {
        self::assertSame([], self::drain(new Backlog(), 10));
    }

    /** @param array<int, string> $requests id => origin */
    private static function backlog(array $requests): Backlog
    {
        $backlog = new Backlog();
        foreach ($requests as $id => $origin) {
            self::assertTrue($backlog->push(self::request($id), $origin));
        }

        return $backlog;
    }

    /**
     * @param (\Closure(string): bool)|null $hasRoom
     *
     * @return list<int> the ids started, in order
     */
    private static function drain(Backlog $backlog, int $room, ?\Closure $hasRoom = null): array
    {
        $started = [];
        $count = $backlog->drain($room, $hasRoom ?? static fn(): bool => true, static function (SpooledRequest $request) use (&$started): void {
            $started[] = $request->id;
        });
        self::assertCount($count, $started);

        return $started;
    }

    private static function request(int $id, int $bodyBytes = 1): SpooledRequest
    {
        return new SpooledRequest($id, 'POST', 'https://a.example/', [], str_repeat('x', $bodyBytes), 'k' . $id, 0, 1.0);
    }
}
