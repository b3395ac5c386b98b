<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Front;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Front\CallerConnection;
use WarmHttp\Relay\Front\ForwardWaiters;
use WarmHttp\Relay\Storage\JournalPosition;

final class ForwardWaitersTest extends TestCase
{
    /** @var list<resource> */
    private array $sockets = [];

    protected function tearDown(): void
    {
        foreach ($this->sockets as $socket) {
            fclose($socket);
        }
    }

    public function testCallersWhoseRecordsStartBeforeTheForwardedPositionAreReleasedInOrder(): void
    {
        $waiters = new ForwardWaiters();
        $waiters->park($this->connection(), '3-0', 'a', 10.0);
        $waiters->park($this->connection(), '3-120', 'b', 10.0);
        $waiters->park($this->connection(), '4-0', 'c', 10.0);

        self::assertSame([], $waiters->forwarded(new JournalPosition(3, 0)), 'a record starting at the position is not forwarded yet');
        self::assertSame(['3-0', '3-120'], array_column($waiters->forwarded(new JournalPosition(3, 240)), 1));
        self::assertSame(1, $waiters->count());
        self::assertSame([['4-0', 'c']], array_map(static fn(array $w): array => [$w[1], $w[2]], $waiters->forwarded(new JournalPosition(5, 0))), 'a later segment forwards every earlier one');
        self::assertSame(0, $waiters->count());
    }

    public function testCallersPastTheirDeadlineAreReleasedAndTheOthersKept(): void
    {
        $waiters = new ForwardWaiters();
        $waiters->park($this->connection(), '1-0', 'a', 1.0);
        $waiters->park($this->connection(), '1-50', 'b', 2.0);

        self::assertSame([], $waiters->expired(0.5));
        self::assertSame(['1-0'], array_column($waiters->expired(1.5), 1));
        self::assertSame(1, $waiters->count());
    }

    public function testTheLastWholeReportLineWins(): void
    {
        self::assertEquals(new JournalPosition(7, 900), ForwardWaiters::lastPosition("7:100\n7:900\n"));
        self::assertNull(ForwardWaiters::lastPosition(''));
        self::assertNull(ForwardWaiters::lastPosition("garbage\n"));
    }

    private function connection(): CallerConnection
    {
        $pair = stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, \STREAM_IPPROTO_IP);
        self::assertNotFalse($pair);
        array_push($this->sockets, ...$pair);

        return new CallerConnection($pair[0], false, 0.0);
    }
}
