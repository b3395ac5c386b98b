<?php

declare(strict_types=1);

namespace WarmHttp\LaravelTests;

use GuzzleHttp\Handler\MockHandler;
use GuzzleHttp\Psr7\Response as Psr7Response;
use Illuminate\Http\Client\Batch;
use Illuminate\Http\Client\ConnectionException;
use Illuminate\Http\Client\Factory;
use Illuminate\Http\Client\Pool;
use Illuminate\Http\Client\Promises\LazyPromise;
use Illuminate\Http\Client\Request;
use Illuminate\Http\Client\Response;
use Illuminate\Support\Facades\Http;
use PHPUnit\Framework\TestCase;
use WarmHttp\Bridge\Laravel\WarmFactory;
use WarmHttp\Rig\FreePort;
use WarmHttp\Rig\LatencyProxy;
use WarmHttp\Rig\Rig;

/**
 * The Http facade of a real Laravel 12 application, through a 20 ms latency proxy in front of
 * the rig's HTTP/2 origin, with WarmHttp's provider and, for contrast, without.
 */
final class HttpFacadeTest extends TestCase
{
    public static function setUpBeforeClass(): void
    {
        if (!class_exists(LaravelApp::class)) {
            self::markTestSkipped('Runs in the Laravel test project (tests/Bridge/LaravelSuiteTest starts it), not in the library\'s own suite.');
        }
    }

    public function testTheProviderBindsTheHttpFactory(): void
    {
        self::assertInstanceOf(WarmFactory::class, LaravelApp::boot()->make(Factory::class));
        self::assertNotInstanceOf(WarmFactory::class, LaravelApp::boot(withWarmHttp: false)->make(Factory::class));
    }

    public function testAnHttpPoolOfTwentyUsesOneConnection(): void
    {
        LaravelApp::boot();
        $proxy = Rig::shared()->proxyTo('h2', 20);

        $responses = self::pool($proxy, 20);

        self::assertCount(20, array_filter($responses, static fn(mixed $r): bool => $r instanceof Response && $r->ok() && $r->body() === 'ok'));
        self::assertSame(1, $proxy->connections());
    }

    public function testWithoutTheProviderAnHttpPoolOpensAConnectionPerRequest(): void
    {
        LaravelApp::boot(withWarmHttp: false);
        $proxy = Rig::shared()->proxyTo('h2', 20);

        self::pool($proxy, 20);

        // Laravel asks Guzzle for HTTP/1.1 and its pool gets a fresh handler: no sharing.
        self::assertGreaterThanOrEqual(10, $proxy->connections());
    }

    public function testSequentialCallsFromManyPendingRequestsShareOneConnection(): void
    {
        LaravelApp::boot();
        $proxy = Rig::shared()->proxyTo('h2', 20);

        for ($i = 0; $i < 5; ++$i) {
            self::assertSame('ok', Http::withOptions(['verify' => Rig::shared()->caFile()])->get($proxy->url('/fast'))->body());
        }

        self::assertSame(1, $proxy->connections());
    }

    public function testHttpAsyncReturnsPromisesThatSettleOnThePool(): void
    {
        LaravelApp::boot();
        $proxy = Rig::shared()->proxyTo('h2', 20);

        $promises = [];
        for ($i = 0; $i < 5; ++$i) {
            $promises[] = self::lazy(Http::async()->withOptions(['verify' => Rig::shared()->caFile()])->get($proxy->url('/echo/' . $i)));
        }
        $bodies = array_map(static function (LazyPromise $promise): string {
            $response = $promise->wait();
            \assert($response instanceof Response);

            return $response->body();
        }, $promises);

        self::assertSame(['/echo/0', '/echo/1', '/echo/2', '/echo/3', '/echo/4'], $bodies);
        self::assertSame(1, $proxy->connections());
    }

    public function testHttpBatchRunsOnThePoolToo(): void
    {
        LaravelApp::boot();
        $proxy = Rig::shared()->proxyTo('h2', 20);

        $responses = Http::batch(static function (Batch $batch) use ($proxy): array {
            $requests = [];
            for ($i = 0; $i < 5; ++$i) {
                $requests[] = $batch->withOptions(['verify' => Rig::shared()->caFile()])->get($proxy->url('/fast'));
            }

            return $requests;
        })->send();

        self::assertCount(5, $responses);
        self::assertSame(1, $proxy->connections());
    }

    public function testLaravelErrorsRetriesAndStatusesBehaveAsBefore(): void
    {
        LaravelApp::boot();
        $refused = \sprintf('http://127.0.0.1:%d/', FreePort::pick());
        $attempts = 0;

        self::assertSame(404, self::response(Http::get(Rig::shared()->nginx()->url('plain', '/status/404')))->status());
        try {
            Http::retry(3, 1, static function () use (&$attempts): bool {
                ++$attempts;

                return true;
            })->get($refused);
            self::fail('nothing listens there');
        } catch (ConnectionException) {
            self::assertSame(2, $attempts, 'the retry callback runs between the 3 attempts');
        }
    }

    public function testHttpFakeStillAnswersBeforeAnyHandler(): void
    {
        LaravelApp::boot();
        Http::fake(['*' => Http::response('faked', 201)]);

        $response = self::response(Http::post('https://example.invalid/things', ['a' => 1]));

        self::assertSame([201, 'faked'], [$response->status(), $response->body()]);
        Http::assertSent(static fn(Request $request): bool => $request->url() === 'https://example.invalid/things');
    }

    public function testAHandlerSetOnPurposeIsKept(): void
    {
        LaravelApp::boot();

        $response = self::response(Http::setHandler(new MockHandler([new Psr7Response(418, [], 'mocked')]))->get('https://example.invalid/'));

        self::assertSame('mocked', $response->body());
    }

    public function testDispatchBuildsTheRequestLikeLaravelAndHandsItOff(): void
    {
        LaravelApp::boot();
        Http::fake();

        /** @phpstan-ignore method.notFound (a macro) */
        Http::withToken('secret')->dispatch('post', 'https://hooks.example.invalid/order', ['id' => 7]);

        Http::assertSent(static fn(Request $request): bool => $request->method() === 'POST'
            && $request->hasHeader('Authorization', 'Bearer secret')
            && $request->data() === ['id' => 7]);
    }

    public function testTheConfigIsPublishable(): void
    {
        LaravelApp::boot();

        $published = \Illuminate\Support\ServiceProvider::pathsToPublish(\WarmHttp\Bridge\Laravel\WarmHttpServiceProvider::class, 'warmhttp-config');

        self::assertCount(1, $published);
        $source = (string) array_key_first($published);
        self::assertFileExists($source);
        self::assertStringEndsWith('config/warmhttp.php', $source);
    }

    public function testDisabledInConfigLeavesTheFactoryAlone(): void
    {
        $app = LaravelApp::boot(warmhttpConfig: ['enabled' => false, 'client' => []]);

        self::assertNotInstanceOf(WarmFactory::class, $app->make(Factory::class));
    }

    private static function response(mixed $response): Response
    {
        self::assertInstanceOf(Response::class, $response);

        return $response;
    }

    /** @return array<array-key, mixed> */
    private static function pool(LatencyProxy $proxy, int $count): array
    {
        return Http::pool(static function (Pool $pool) use ($proxy, $count): array {
            $requests = [];
            for ($i = 0; $i < $count; ++$i) {
                $requests[] = $pool->withOptions(['verify' => Rig::shared()->caFile()])->get($proxy->url('/fast'));
            }

            return $requests;
        });
    }

    /** Laravel's facade docblocks type Http::async()->get() as a Response; it is a LazyPromise. */
    private static function lazy(mixed $promise): LazyPromise
    {
        self::assertInstanceOf(LazyPromise::class, $promise);

        return $promise;
    }
}
