<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Front;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Front\ListeningSockets;

/**
 * The unix socket's path on a real file system: what the relay may remove, where it refuses to
 * listen, and the backlog a burst of callers finds.
 */
final class ListeningSocketsTest extends TestCase
{
    /** An unprivileged user that owns nothing here (Debian's nobody). */
    private const OTHER_UID = 65534;

    private string $dir = '';

    private ?ListeningSockets $listeners = null;

    protected function setUp(): void
    {
        $this->dir = sys_get_temp_dir() . '/warmhttp-listen-' . getmypid() . '-' . bin2hex(random_bytes(4));
        mkdir($this->dir, 0o700);
    }

    protected function tearDown(): void
    {
        $this->listeners?->close();
        exec('rm -rf ' . escapeshellarg($this->dir));
    }

    public function testTheSocketIsGroupOnlyAndRemovedOnClose(): void
    {
        $this->listeners = ListeningSockets::open($this->path(), null, null);

        self::assertSame(0o140660, fileperms($this->path()) & 0o170777);
        $this->listeners->close();
        self::assertFileDoesNotExist($this->path());
    }

    public function testARegularFileAtThePathIsNeitherDeletedNorListenedOn(): void
    {
        file_put_contents($this->path(), 'precious');

        $this->expectRefusal('Cannot listen on ' . $this->path() . ': a file is there, not a socket');

        try {
            ListeningSockets::open($this->path(), null, null);
        } finally {
            self::assertSame('precious', file_get_contents($this->path()));
        }
    }

    public function testASymlinkAtThePathIsNotFollowedNorDeleted(): void
    {
        file_put_contents($this->dir . '/target', 'precious');
        symlink($this->dir . '/target', $this->path());

        $this->expectRefusal('a symbolic link is there, not a socket');

        try {
            ListeningSockets::open($this->path(), null, null);
        } finally {
            self::assertTrue(is_link($this->path()));
            self::assertSame('precious', file_get_contents($this->dir . '/target'));
        }
    }

    public function testADeadSocketOfOursIsReplaced(): void
    {
        $old = stream_socket_server('unix://' . $this->path());
        self::assertNotFalse($old);
        fclose($old); // PHP leaves the file: what a relay killed with SIGKILL leaves

        $this->listeners = ListeningSockets::open($this->path(), null, null);

        self::assertNotFalse(stream_socket_client('unix://' . $this->path()));
    }

    public function testALiveSocketIsLeftToItsRelay(): void
    {
        $live = stream_socket_server('unix://' . $this->path());
        self::assertNotFalse($live);

        $this->expectRefusal('Another relay already listens on ' . $this->path());

        try {
            ListeningSockets::open($this->path(), null, null);
        } finally {
            self::assertFileExists($this->path());
            fclose($live);
        }
    }

    public function testASocketOfAnotherUserIsNeitherDeletedNorTrusted(): void
    {
        self::requireRoot();
        $squatter = stream_socket_server('unix://' . $this->path());
        self::assertNotFalse($squatter);
        chown($this->path(), self::OTHER_UID);

        $this->expectRefusal('a socket owned by user "' . self::userName(self::OTHER_UID) . '" is there');

        try {
            ListeningSockets::open($this->path(), null, null);
        } finally {
            self::assertSame(self::OTHER_UID, fileowner($this->path()));
            fclose($squatter);
        }
    }

    public function testADirectoryOthersMayWriteWithoutTheStickyBitIsRefused(): void
    {
        chmod($this->dir, 0o777);

        $this->expectRefusal(\sprintf('The relay\'s socket would be under %s (mode 0777), which other users may write', $this->dir));

        ListeningSockets::open($this->path(), null, null);
    }

    public function testAGroupWritableDirectoryIsRefusedToo(): void
    {
        chmod($this->dir, 0o770);

        $this->expectRefusal('(mode 0770), which other users may write');

        ListeningSockets::open($this->path(), null, null);
    }

    public function testASharedStickyDirectoryOwnedByUsIsAccepted(): void
    {
        chmod($this->dir, 0o1777);

        $this->listeners = ListeningSockets::open($this->path(), null, null);

        self::assertFileExists($this->path());
    }

    public function testADirectoryOfAnotherUserIsRefused(): void
    {
        self::requireRoot();
        chown($this->dir, self::OTHER_UID);

        $this->expectRefusal(\sprintf('The relay\'s socket would be under %s, owned by user "%s"', $this->dir, self::userName(self::OTHER_UID)));

        ListeningSockets::open($this->path(), null, null);
    }

    public function testASymlinkedDirectoryIsCheckedWhereItLeads(): void
    {
        mkdir($this->dir . '/open', 0o777);
        chmod($this->dir . '/open', 0o777);
        symlink($this->dir . '/open', $this->dir . '/link');

        $this->expectRefusal('The relay\'s socket would be under ' . $this->dir . '/open (mode 0777)');

        ListeningSockets::open($this->dir . '/link/relay.sock', null, null);
    }

    public function testCloseLeavesAFileThatReplacedOurSocket(): void
    {
        $this->listeners = ListeningSockets::open($this->path(), null, null);
        unlink($this->path());
        file_put_contents($this->path(), 'someone else\'s');

        $this->listeners->close();

        self::assertSame('someone else\'s', file_get_contents($this->path()));
    }

    /** PHP's default backlog of 32 let a burst of 200 dispatches see 34 refused connects. */
    public function testTwoHundredCallersAtOnceAreAllQueued(): void
    {
        $this->listeners = ListeningSockets::open($this->path(), null, null);
        $max = (int) @file_get_contents('/proc/sys/net/core/somaxconn');
        if ($max > 0 && $max < 200) {
            self::markTestSkipped("net.core.somaxconn is $max here: the kernel caps the backlog below 200.");
        }

        $connected = [];
        for ($i = 0; $i < 200; ++$i) {
            // Nobody accepts: a unix socket refuses a non-blocking connect at once when its queue is full.
            $client = @stream_socket_client('unix://' . $this->path(), $errno, $errstr, 1.0, \STREAM_CLIENT_CONNECT | \STREAM_CLIENT_ASYNC_CONNECT);
            if ($client !== false) {
                $connected[] = $client;
            }
        }

        self::assertCount(200, $connected);
    }

    public function testTheOperatorHearsWhenTheKernelWouldCapTheBacklog(): void
    {
        self::assertStringStartsWith('net.core.somaxconn is 128: the kernel queues at most that many callers', (string) ListeningSockets::backlogWarning(128));
        self::assertStringContainsString('sysctl -w net.core.somaxconn=1024', (string) ListeningSockets::backlogWarning(128));
        self::assertNull(ListeningSockets::backlogWarning(4096));
        self::assertNull(ListeningSockets::backlogWarning(null));
    }

    public function testANonLoopbackTcpAddressIsRefusedBeforeAnythingElse(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage('Refusing to listen on "0.0.0.0:8787": the relay binds loopback only');

        ListeningSockets::open(null, '0.0.0.0:8787', null);
    }

    public function testTcpNeedsAToken(): void
    {
        $this->expectExceptionMessage('--tcp needs a token (--token-file=PATH or $WARMHTTP_RELAY_TOKEN)');

        ListeningSockets::open(null, '127.0.0.1:1', null);
    }

    private function path(): string
    {
        return $this->dir . '/relay.sock';
    }

    private function expectRefusal(string $message): void
    {
        $this->expectException(\RuntimeException::class);
        $this->expectExceptionMessage($message);
    }

    private static function requireRoot(): void
    {
        if (posix_geteuid() !== 0) {
            self::markTestSkipped('Needs root to give a file to another user.');
        }
    }

    private static function userName(int $uid): string
    {
        $user = posix_getpwuid($uid);

        return \is_array($user) ? $user['name'] : '#' . $uid;
    }
}
