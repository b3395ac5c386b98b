<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\App\RelayAddress;
use WarmHttp\Relay\App\RelayConnection;

/**
 * The process's kept relay connection hands its stream out again only once this process
 * claimed it (after writing a request): a stream no process claimed (the exchange broke off
 * before its request was written, or a forked child's) makes the next take() connect anew.
 * A listening unix socket in a private directory; nothing is read or answered.
 */
final class AppRelayConnectionTest extends TestCase
{
    private string $dir;

    /** @var resource */
    private $server;

    protected function setUp(): void
    {
        $this->dir = sys_get_temp_dir() . '/warmhttp-conn-' . getmypid() . '-' . bin2hex(random_bytes(4));
        mkdir($this->dir, 0700);
        $server = stream_socket_server('unix://' . $this->dir . '/relay.sock', $errno, $errstr);
        self::assertNotFalse($server, (string) $errstr);
        $this->server = $server;
    }

    protected function tearDown(): void
    {
        fclose($this->server);
        @unlink($this->dir . '/relay.sock');
        @rmdir($this->dir);
    }

    public function testAClaimedStreamIsHandedOutAgain(): void
    {
        $connection = RelayConnection::to(RelayAddress::parse('unix://' . $this->dir . '/relay.sock'));
        $first = $connection->take(1.0);
        self::assertTrue($connection->opened());
        $connection->claim();

        self::assertSame($first, $connection->take(1.0));
        self::assertFalse($connection->opened());
        self::assertSame($first, $connection->take(1.0, recheck: true), 'nothing unread: still clean');
        $connection->drop();
    }

    public function testAStreamNoProcessClaimedIsNotHandedOutAgain(): void
    {
        $connection = RelayConnection::to(RelayAddress::parse('unix://' . $this->dir . '/relay.sock'));
        $first = $connection->take(1.0);
        $firstId = (int) $first;

        $second = $connection->take(1.0);
        self::assertTrue($connection->opened(), 'a new connection');
        self::assertNotSame($firstId, (int) $second);
        self::assertFalse(\is_resource($first), 'the unclaimed one is closed');
        $connection->drop();
    }
}
