<?php

declare(strict_types=1);

namespace WarmHttp\LaravelTests;

use GuzzleHttp\Promise\PromiseInterface;
use Illuminate\Container\Container;
use Illuminate\Contracts\Events\Dispatcher;
use Illuminate\Foundation\Application;
use Illuminate\Http\Client\Promises\LazyPromise;
use Illuminate\Http\Request;
use Illuminate\Support\Facades\Facade;
use Illuminate\Support\Facades\Http;
use Laravel\Octane\Events\RequestReceived;
use Laravel\Octane\Events\RequestTerminated;
use PHPUnit\Framework\TestCase;
use Symfony\Component\HttpFoundation\Response;
use WarmHttp\Bridge\Guzzle\Handler;
use WarmHttp\Pool;
use WarmHttp\Rig\Rig;

/**
 * laravel/octane is not in the registry copy, so its worker loop is replayed here as Octane 2
 * runs it (Worker::handle, ApplicationGateway, CurrentApplication): a base application booted
 * once; per request a clone of it made current for the container and the facades,
 * RequestReceived and RequestTerminated dispatched on the clone's events (event classes with
 * Octane's names and constructors, from tests/Integration/Bridge/laravel/octane-stubs), then the clone
 * flushed and the base made current again.
 */
final class OctaneLifecycleTest extends TestCase
{
    public static function setUpBeforeClass(): void
    {
        if (!class_exists(LaravelApp::class)) {
            self::markTestSkipped('Runs in the Laravel test project (tests/Bridge/LaravelSuiteTest starts it), not in the library\'s own suite.');
        }
    }

    public function testThePoolAndTheHandlerSurviveRequestsAndEachRequestEndsClean(): void
    {
        $_SERVER['LARAVEL_OCTANE'] = '1';
        try {
            $base = LaravelApp::boot();
        } finally {
            unset($_SERVER['LARAVEL_OCTANE']);
        }
        $proxy = Rig::shared()->proxyTo('h2', 20);
        $handlers = [];
        $forgotten = [];

        for ($i = 0; $i < 3; ++$i) {
            self::request($base, static function (Application $sandbox) use ($proxy, &$handlers, &$forgotten): void {
                Http::withOptions(['verify' => Rig::shared()->caFile()])->get($proxy->url('/fast'))->throw();
                // Started (Laravel 12's async promises are lazy until built, as Http::pool
                // builds them), never awaited: must not leak into the next request.
                $promise = self::lazy(Http::async()->withOptions(['verify' => Rig::shared()->caFile()])->get($proxy->url('/slow?ms=2000')));
                $promise->buildPromise();
                $forgotten[] = $promise;
                $handlers[] = spl_object_id($sandbox->make(Handler::class));
            });
            self::assertSame(0, Pool::stats()->inFlight, 'RequestTerminated reset the pool');
        }

        self::assertSame(1, $proxy->connections(), 'three worker requests, one warm connection');
        self::assertSame([spl_object_id($base->make(Handler::class))], array_values(array_unique($handlers)), 'resolved in the base container, so no clone lost it');
        foreach ($forgotten as $promise) {
            // Settled within its own request; Laravel's async chain turns the failure into a
            // value, as Http::pool reports failed requests.
            self::assertInstanceOf(PromiseInterface::class, $promise);
            self::assertSame(PromiseInterface::FULFILLED, $promise->getState());
            self::assertInstanceOf(\Throwable::class, $promise->wait());
        }
    }

    /** @param callable(Application): void $controller */
    private static function request(Application $base, callable $controller): void
    {
        $sandbox = clone $base;
        self::makeCurrent($sandbox);
        $request = Request::create('/');
        $events = $sandbox->make(Dispatcher::class);
        $events->dispatch(new RequestReceived($base, $sandbox, $request));
        $controller($sandbox);
        $events->dispatch(new RequestTerminated($base, $sandbox, $request, new Response('done')));
        self::makeCurrent($base);
        $sandbox->flush();
    }

    /** What Octane's CurrentApplication::set() does. */
    private static function makeCurrent(Application $app): void
    {
        $app->instance('app', $app);
        $app->instance(Container::class, $app);
        Container::setInstance($app);
        Facade::clearResolvedInstances();
        Facade::setFacadeApplication($app);
    }

    /** Laravel's facade docblocks type Http::async()->get() as a Response; it is a LazyPromise. */
    private static function lazy(mixed $promise): LazyPromise
    {
        self::assertInstanceOf(LazyPromise::class, $promise);

        return $promise;
    }
}
