<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use WarmHttp\Rig\PhpFpm;
use WarmHttp\Rig\Rig;
use WarmHttp\Rig\TempDir;

/**
 * Real PHP-FPM with the relay down: dispatch() journals the request and the worker sends it
 * after fastcgi_finish_request(), so the browser does not wait for the destination (1.5 s here).
 */
final class AppFpmFallbackTest extends TestCase
{
    public function testTheFallbackGoesOutAfterTheResponse(): void
    {
        $nginx = Rig::shared()->nginx();
        $dir = TempDir::create('fpm-fallback');
        $fpm = PhpFpm::start(__DIR__ . '/fallback-fpm', 2, [
            'WARMHTTP_RELAY' => 'unix://' . $dir->path('relay-down.sock'),
            'WARMHTTP_FALLBACK_DIR' => $dir->path('journal'),
            'WARMHTTP_UPSTREAM' => rtrim($nginx->url('plain', '/'), '/'),
        ]);
        $tag = bin2hex(random_bytes(4));

        $start = hrtime(true);
        $answer = file_get_contents($fpm->url('/dispatch.php?tag=' . $tag));
        $seconds = (hrtime(true) - $start) / 1e9;

        self::assertSame('dispatched', $answer, $fpm->errorLog());
        self::assertLessThan(1.0, $seconds, 'the browser had its answer before the 1.5 s send');
        self::assertSame(1, $nginx->awaitRequests(1, '/slow?ms=1500&tag=' . $tag, 10.0), $fpm->errorLog());
        usleep(100_000);
        self::assertSame([], glob($dir->path('journal') . '/*.req'), 'delivered: out of the journal');
        self::assertStringContainsString('written to the fallback journal', $fpm->errorLog());
        $fpm->stop();
        $dir->remove();
    }
}
