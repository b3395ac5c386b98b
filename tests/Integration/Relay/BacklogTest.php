<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Storage\SpooledRequest;
use WarmHttp\Relay\Worker\Backlog;

/** The delivery worker's in-memory queue of due requests: order, caps, bounds. Pure logic. */
final class BacklogTest extends TestCase
{
    public function testStartsOldestFirstPerOriginAndTakesTurnsBetweenOrigins(): void
    {
        $backlog = new Backlog();
        foreach ([1 => 'https://a:443', 2 => 'https://a:443', 3 => 'https://b:443', 4 => 'https://a:443'] as $id => $origin) {
            self::assertTrue($backlog->push(self::request($id), $origin));
        }

        $started = [];
        $backlog->drain(10, static fn(string $origin): bool => true, static function (SpooledRequest $r) use (&$started): void {
            $started[] = $r->id;
        });

        self::assertSame([1, 3, 2, 4], $started);
        self::assertSame(0, $backlog->count());
    }

    public function testAnOriginAtItsCapWaitsWhileOthersGoOn(): void
    {
        $backlog = new Backlog();
        $backlog->push(self::request(1), 'https://slow:443');
        $backlog->push(self::request(2), 'https://slow:443');
        $backlog->push(self::request(3), 'https://fast:443');
        $inFlight = ['https://slow:443' => 1, 'https://fast:443' => 0];

        $started = [];
        $count = $backlog->drain(10, static fn(string $origin): bool => $inFlight[$origin] < 1, static function (SpooledRequest $r, string $origin) use (&$started, &$inFlight): void {
            $started[] = $r->id;
            ++$inFlight[$origin];
        });

        self::assertSame([3], $started);
        self::assertSame(1, $count);
        self::assertSame([1 => true, 2 => true], $backlog->ids(), 'the capped origin\'s requests wait, in order');
    }

    public function testGlobalRoomIsHonoured(): void
    {
        $backlog = new Backlog();
        foreach (range(1, 5) as $id) {
            $backlog->push(self::request($id), 'https://a:443');
        }

        self::assertSame(2, $backlog->drain(2, static fn(): bool => true, static function (): void {}));
        self::assertSame(3, $backlog->count());
    }

    public function testFullBacklogRefusesSoTheRequestStaysInTheSpoolOnly(): void
    {
        $byCount = new Backlog(maxRequests: 2);
        self::assertTrue($byCount->push(self::request(1), 'https://a:443'));
        self::assertTrue($byCount->push(self::request(2), 'https://a:443'));
        self::assertFalse($byCount->push(self::request(3), 'https://a:443'));

        $byBytes = new Backlog(maxBytes: 1500);
        self::assertTrue($byBytes->push(self::request(1, 1000), 'https://a:443'));
        self::assertFalse($byBytes->push(self::request(2, 1000), 'https://a:443'));
        self::assertTrue($byBytes->push(self::request(1, 1000), 'https://a:443'), 'a request already held is not held twice');
        self::assertSame(1, $byBytes->count());
    }

    private static function request(int $id, int $bodyBytes = 10): SpooledRequest
    {
        return new SpooledRequest($id, 'POST', 'https://a/x', [], str_repeat('x', $bodyBytes), 'key-' . $id, 0, 0.0);
    }
}
