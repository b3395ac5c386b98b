<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Console;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Console\StateFiles;

final class StateFilesTest extends TestCase
{
    private string $dir = '';

    protected function setUp(): void
    {
        $this->dir = sys_get_temp_dir() . '/warmhttp-state-' . getmypid() . '-' . bin2hex(random_bytes(4));
        mkdir($this->dir, 0o700);
    }

    protected function tearDown(): void
    {
        exec('rm -rf ' . escapeshellarg($this->dir));
    }

    public function testFilesAnOlderRelayLeftReadableBecomePrivate(): void
    {
        $spool = $this->dir . '/relay.sqlite';
        foreach (['', '-wal', '-shm', '.worker.lock', '.metrics.json'] as $suffix) {
            $this->file($spool . $suffix, 0o644);
        }
        mkdir($spool . '.journal', 0o755);
        $this->file($spool . '.journal/0000000001.log', 0o644);

        $changed = StateFiles::tighten($spool);

        self::assertCount(7, $changed);
        foreach ($changed as $path) {
            self::assertSame(0, fileperms($path) & 0o077, $path);
        }
        self::assertSame(0o700, fileperms($spool . '.journal') & 0o777);
        self::assertSame(0o600, fileperms($spool) & 0o777);
    }

    public function testPrivateFilesAreLeftAsTheyAre(): void
    {
        $this->file($this->dir . '/relay.sqlite', 0o600);

        self::assertSame([], StateFiles::tighten($this->dir . '/relay.sqlite'));
    }

    public function testOtherFilesInTheDirectoryAndSocketsAreNotTouched(): void
    {
        $this->file($this->dir . '/other.txt', 0o644);
        $socket = stream_socket_server('unix://' . $this->dir . '/relay.sqlite.sock');
        self::assertNotFalse($socket);
        chmod($this->dir . '/relay.sqlite.sock', 0o660);

        StateFiles::tighten($this->dir . '/relay.sqlite');

        self::assertSame(0o644, fileperms($this->dir . '/other.txt') & 0o777);
        self::assertSame(0o660, fileperms($this->dir . '/relay.sqlite.sock') & 0o777);
        fclose($socket);
    }

    public function testNeighboursThatShareTheSpoolsPrefixAreNotTouched(): void
    {
        // A fleet relay's --journal=/srv/app/relay beside the operator's relay.out and relay-notes.
        $base = $this->dir . '/relay';
        foreach (['.out', '-notes', 's.sqlite', '.journal.bak'] as $suffix) {
            $this->file($base . $suffix, 0o644);
        }
        $this->file($base . '.relay-id', 0o644);

        self::assertSame([$base . '.relay-id'], StateFiles::tighten($base));
        foreach (['.out', '-notes', 's.sqlite', '.journal.bak'] as $suffix) {
            self::assertSame(0o644, fileperms($base . $suffix) & 0o777, $suffix);
        }
    }

    public function testASymlinkIsNotFollowed(): void
    {
        $this->file($this->dir . '/elsewhere', 0o644);
        symlink($this->dir . '/elsewhere', $this->dir . '/relay.sqlite-wal');

        StateFiles::tighten($this->dir . '/relay.sqlite');

        self::assertSame(0o644, fileperms($this->dir . '/elsewhere') & 0o777);
    }

    private function file(string $path, int $mode): void
    {
        file_put_contents($path, 'x');
        chmod($path, $mode);
    }
}
