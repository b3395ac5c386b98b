<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Laravel;

use GuzzleHttp\Promise\Utils as Queue;
use Illuminate\Contracts\Events\Dispatcher;
use Illuminate\Contracts\Foundation\Application;
use Illuminate\Http\Client\Factory;
use Illuminate\Support\ServiceProvider;
use WarmHttp\Bridge\Guzzle\Handler;
use WarmHttp\Bridge\Guzzle\Outbox;
use WarmHttp\Client;
use WarmHttp\Pool;
use WarmHttp\Relay\App\DeferredSends;

/**
 * Found by package auto-discovery: the Http facade, Http::pool, Http::batch and Http::async
 * run on WarmHttp's process-wide pool, and Http::dispatch() hands requests to the relay.
 * Under Octane the pool lives in a static, so no container clone can lose it; after each
 * request, task and tick the pool is reset (un-awaited requests cancelled, connections kept).
 * At the end of every unit of work (request, command, queued job, Octane request) the
 * dispatch() fallbacks are sent.
 */
final class WarmHttpServiceProvider extends ServiceProvider
{
    /**
     * Octane's events, named as strings: listening needs no laravel/octane package, and
     * Laravel dispatches an event object under its class name.
     */
    public const OCTANE_AFTER_WORK = [
        'Laravel\Octane\Events\RequestTerminated',
        'Laravel\Octane\Events\TaskTerminated',
        'Laravel\Octane\Events\TickTerminated',
    ];

    /**
     * The end of a queued job, however it ended: dispatch() fallbacks journaled during the job
     * go out now, not when the queue worker exits (hours later, or never if it is killed).
     */
    public const QUEUE_AFTER_WORK = [
        'Illuminate\Queue\Events\JobProcessed',
        'Illuminate\Queue\Events\JobFailed',
        'Illuminate\Queue\Events\JobReleasedAfterException',
    ];

    public function register(): void
    {
        $this->mergeConfigFrom(self::configFile(), 'warmhttp');
        $this->app->singleton(Client::class, static fn(Application $app): Client => new Client(ClientConfig::options($app)));
        $this->app->singleton(Handler::class, static fn(Application $app): Handler => new Handler(ClientConfig::options($app)));
        if (ClientConfig::enabled($this->app)) {
            $this->app->singleton(Factory::class, static fn(Application $app): Factory => new WarmFactory(
                $app->make(Handler::class),
                $app->bound('events') ? $app->make(Dispatcher::class) : null,
            ));
        }
    }

    public function boot(): void
    {
        $this->publishes([self::configFile() => $this->app->configPath('warmhttp.php')], 'warmhttp-config');
        DispatchMacro::register();
        $events = $this->app->make(Dispatcher::class);
        // After the response of an HTTP request (FPM: sent already) or an artisan command.
        $this->app->terminating(static fn() => DeferredSends::flush());
        $events->listen(self::QUEUE_AFTER_WORK, static fn() => DeferredSends::flush());
        $events->listen(self::OCTANE_AFTER_WORK, static function (): void {
            Pool::reset(); // sends the dispatch() fallbacks too
            // Guzzle requests queued and never waited for were never handed to the pool.
            Outbox::abandonAll('the pool was reset between two worker requests before this request was awaited');
            // Settles what was chained on the cancelled requests (Laravel's Http::async()
            // promises) now, inside this request, not in the next one.
            Queue::queue()->run();
        });
        if (isset($_SERVER['LARAVEL_OCTANE'])) {
            // Resolved in the worker's base container, before Octane clones it per request,
            // so the Handler (and the Clients it caches) is built once per worker.
            $this->app->make(Handler::class);
            $this->app->make(Client::class);
        }
    }

    private static function configFile(): string
    {
        return \dirname(__DIR__, 3) . '/config/warmhttp.php';
    }
}
