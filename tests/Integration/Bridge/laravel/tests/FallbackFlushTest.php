<?php

declare(strict_types=1);

namespace WarmHttp\LaravelTests;

use Illuminate\Support\Facades\Http;
use PHPUnit\Framework\TestCase;
use WarmHttp\Rig\TempDir;
use WarmHttp\Tests\Integration\Relay\FlakyOrigin;

/**
 * Http::dispatch() with the relay down journals the request; the end of the unit of work it
 * was made in (a queued job, a request's terminate) sends it, not the worker's exit.
 */
final class FallbackFlushTest extends TestCase
{
    /** Seen from inside the job: a queued closure is serialized, so it takes nothing along. */
    private static ?FlakyOrigin $origin = null;

    public static function setUpBeforeClass(): void
    {
        if (!class_exists(LaravelApp::class)) {
            self::markTestSkipped('Runs in the Laravel test project (tests/Bridge/LaravelSuiteTest starts it), not in the library\'s own suite.');
        }
    }

    public function testTheEndOfAQueuedJobSendsWhatTheJobDispatched(): void
    {
        $dir = TempDir::create('laravel-fallback');
        $origin = self::$origin = FlakyOrigin::start(200);
        $app = LaravelApp::boot(true, ['client' => self::client($dir)]);
        $config = $app->make('config');
        \assert($config instanceof \Illuminate\Config\Repository);
        $config->set('queue.default', 'sync');
        $url = $origin->url('/from-job');

        dispatch(static function () use ($url): void {
            /** @phpstan-ignore staticMethod.notFound (a macro) */
            Http::dispatch('POST', $url, ['id' => 1]);
            TestCase::assertSame([], self::$origin?->requests(), 'journaled, not sent inside the job');
        });

        self::assertCount(1, $origin->requests(), 'sent when the job ended (JobProcessed)');
        self::assertSame([], glob($dir->path('journal') . '/*.req'));
        $dir->remove();
    }

    public function testTheTerminationOfARequestSendsWhatItDispatched(): void
    {
        $dir = TempDir::create('laravel-fallback');
        $origin = FlakyOrigin::start(200);
        $app = LaravelApp::boot(true, ['client' => self::client($dir)]);

        /** @phpstan-ignore staticMethod.notFound (a macro) */
        Http::dispatch('POST', $origin->url('/from-request'), ['id' => 2]);
        self::assertSame([], $origin->requests());
        $app->terminate(); // what the HTTP and console kernels call after the response

        self::assertCount(1, $origin->requests());
        $dir->remove();
    }

    /** @return array<string, mixed> */
    private static function client(TempDir $dir): array
    {
        return [
            'relay' => 'unix://' . $dir->path('no-relay.sock'),
            'relay_allow_private_networks' => true,
            'relay_fallback_dir' => $dir->path('journal'),
        ];
    }
}
