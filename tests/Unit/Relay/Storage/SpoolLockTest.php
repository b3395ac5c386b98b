<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Storage;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Storage\SpoolLock;
use WarmHttp\Relay\Storage\SpoolUnavailable;
use WarmHttp\Tests\Unit\Support\TempDirectory;

final class SpoolLockTest extends TestCase
{
    private TempDirectory $temp;

    protected function setUp(): void
    {
        $this->temp = new TempDirectory();
    }

    protected function tearDown(): void
    {
        $this->temp->remove();
    }

    public function testASecondHolderIsRefusedWithThePidOfTheFirst(): void
    {
        $spool = $this->temp->path . '/spool.sqlite';
        $held = SpoolLock::acquire($spool);

        try {
            SpoolLock::acquire($spool);
            self::fail('a second lock on the same spool');
        } catch (SpoolUnavailable $e) {
            self::assertStringContainsString(\sprintf('Another relay (pid %d) already uses the spool "%s"', getmypid(), $spool), $e->getMessage());
            self::assertStringContainsString('nothing was changed', $e->getMessage());
        }
        self::assertSame([$spool . '.lock'], glob($this->temp->path . '/*'), 'no spool, journal or socket was made');

        $held->release();
        SpoolLock::acquire($spool)->release();
    }
}
