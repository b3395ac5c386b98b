<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\App\RelayConnection;

/**
 * The process's kept relay connection hands its stream out again only once this process
 * claimed it (after writing a request) and its exchange settled (its answer read whole): a
 * stream no process claimed (the exchange broke off before its request was written, or a forked
 * child's) or whose exchange did not settle makes the next take() connect anew.
 * A listening unix socket in a private directory; nothing is read or answered.
 */
final class AppRelayConnectionTest extends TestCase
{
    private PrivateRelaySocket $relay;

    protected function setUp(): void
    {
        $this->relay = PrivateRelaySocket::listen();
    }

    protected function tearDown(): void
    {
        $this->relay->close();
    }

    public function testAClaimedStreamIsHandedOutAgain(): void
    {
        $connection = RelayConnection::to($this->relay->address());
        $first = $connection->take(1.0);
        self::assertTrue($connection->opened());
        $connection->claim();
        $connection->settle();

        self::assertSame($first, $connection->take(1.0));
        self::assertFalse($connection->opened());
        $connection->settle();
        self::assertSame($first, $connection->take(1.0, recheck: true), 'nothing unread: still clean');
        $connection->drop();
    }

    /**
     * An exchange that never settled (its request died before its answer was read whole) leaves
     * a stream that may hold the rest of that answer: the next take connects anew and closes it.
     */
    public function testAStreamWhoseExchangeDidNotSettleIsNotHandedOutAgain(): void
    {
        $connection = RelayConnection::to($this->relay->address());
        $first = $connection->take(1.0);
        $connection->claim();

        $second = $connection->take(1.0);
        self::assertTrue($connection->opened(), 'a new connection');
        self::assertFalse(\is_resource($first), 'the unsettled one is closed');
        $connection->claim();
        $connection->settle();
        self::assertSame($second, $connection->take(1.0), 'the new one, settled, is kept');
        $connection->drop();
    }

    public function testAStreamNoProcessClaimedIsNotHandedOutAgain(): void
    {
        $connection = RelayConnection::to($this->relay->address());
        $first = $connection->take(1.0);
        $firstId = (int) $first;

        $second = $connection->take(1.0);
        self::assertTrue($connection->opened(), 'a new connection');
        self::assertNotSame($firstId, (int) $second);
        self::assertFalse(\is_resource($first), 'the unclaimed one is closed');
        $connection->drop();
    }

    /**
     * A child forked after its parent claimed the stream connects anew, and the parent's socket
     * outlives the child's closing its copy and exiting.
     */
    public function testAForkedChildConnectsAnewAndLeavesItsParentsSocket(): void
    {
        if (!\function_exists('pcntl_fork')) {
            self::markTestSkipped('needs ext-pcntl');
        }
        $connection = RelayConnection::to($this->relay->address());
        $parents = $connection->take(1.0);
        $connection->claim();
        $connection->settle();
        $accepted = $this->relay->accept();

        $pid = pcntl_fork();
        self::assertNotSame(-1, $pid, 'fork failed');
        if ($pid === 0) {
            $childs = $connection->take(1.0);
            $connection->claim();
            fwrite($childs, $connection->opened() && $childs !== $parents ? 'child' : 'shared');
            // exec, not exit: the child must not run its parent's shutdown (the rig's servers).
            pcntl_exec('/bin/true');
        }
        $fromChild = $this->relay->accept(); // the child connected anew
        self::assertSame('child', fread($fromChild, 16));
        pcntl_waitpid($pid, $status);

        self::assertSame($parents, $connection->take(1.0, recheck: true), 'the parent keeps its socket');
        self::assertFalse($connection->opened());
        fwrite($parents, 'parent');
        self::assertSame('parent', fread($accepted, 16));
        $connection->drop();
    }
}
