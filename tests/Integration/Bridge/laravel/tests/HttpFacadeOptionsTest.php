<?php

declare(strict_types=1);

namespace WarmHttp\LaravelTests;

use Illuminate\Http\Client\Response;
use Illuminate\Support\Facades\Http;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Rig\Rig;
use WarmHttp\Tests\Integration\Bridge\Parity\Answer;
use WarmHttp\Tests\Integration\Bridge\Parity\EchoOrigin;

/**
 * Issue 14's Laravel items: `Http::withOptions()` with a proxy, a client certificate and a
 * progress callback, and `Http::withDigestAuth()`, through WarmHttp's provider and, for
 * contrast, through Laravel's own Guzzle handler. What the bridge cannot honour yet is refused
 * loudly, naming the option, before anything is sent (docs/bridges.md).
 */
final class HttpFacadeOptionsTest extends TestCase
{
    private static ?EchoOrigin $origin = null;

    public static function setUpBeforeClass(): void
    {
        if (!class_exists(LaravelApp::class)) {
            self::markTestSkipped('Runs in the Laravel test project (tests/Bridge/LaravelSuiteTest starts it), not in the library\'s own suite.');
        }
        self::$origin = EchoOrigin::start();
    }

    public static function tearDownAfterClass(): void
    {
        self::$origin = null;
    }

    /** @return iterable<string, array{bool}> */
    public static function providers(): iterable
    {
        yield 'with WarmHttp' => [true];
        yield 'Laravel alone' => [false];
    }

    /** The echo origin is the proxy: it receives the absolute-form request line. */
    #[DataProvider('providers')]
    public function testWithOptionsProxySendsThroughTheProxy(bool $withWarmHttp): void
    {
        LaravelApp::boot($withWarmHttp);
        $origin = self::origin();
        $origin->script(['/through' => Answer::status(200, [], 'via proxy')]);
        $mark = $origin->mark();

        // a closed loopback port: a request that ignored the proxy would stay on loopback
        $response = self::response(Http::withOptions(['proxy' => $origin->url('/')])->get('http://127.0.0.2:9/through'));

        self::assertSame('via proxy', $response->body());
        self::assertSame(['GET http://127.0.0.2:9/through HTTP/1.1'], array_map(static fn($r): string => $r->line, $origin->received($mark)));
    }

    #[DataProvider('providers')]
    public function testWithOptionsCertPresentsTheClientCertificate(bool $withWarmHttp): void
    {
        LaravelApp::boot($withWarmHttp);
        [$cert, $key] = Rig::shared()->certificate()->client('carol', 'open sesame');
        $url = Rig::shared()->nginx()->url('mtls', '/whoami');

        $response = self::response(Http::withOptions(['verify' => Rig::shared()->caFile(), 'cert' => $cert, 'ssl_key' => [$key, 'open sesame']])->get($url));

        self::assertSame('SUCCESS CN=carol', $response->body());
    }

    /**
     * Refused until the Client has a per-request progress callback (docs/bridges.md): the
     * caller learns at once, by name, and nothing is sent; Laravel alone calls it.
     */
    public function testWithOptionsProgressIsRefusedLoudlyThroughWarmHttp(): void
    {
        $calls = 0;
        $progress = static function () use (&$calls): void {
            ++$calls;
        };
        $origin = self::origin();
        $origin->script(['/progress' => Answer::status(200, [], 'ok')]);

        LaravelApp::boot(false);
        self::assertSame('ok', self::response(Http::withOptions(['progress' => $progress])->get($origin->url('/progress')))->body());
        self::assertGreaterThan(0, $calls, 'Laravel alone: Guzzle\'s curl calls it');

        LaravelApp::boot();
        $mark = $origin->mark();
        self::assertRefused('progress', static fn() => Http::withOptions(['progress' => $progress])->get($origin->url('/progress')));
        self::assertSame([], $origin->received($mark), 'nothing was sent');
    }

    /** Refused until the Client has an HTTP authentication option (CURLOPT_HTTPAUTH); Laravel alone answers the challenge. */
    public function testWithDigestAuthIsRefusedLoudlyThroughWarmHttp(): void
    {
        $origin = self::origin();
        $challenge = Answer::status(401, ['WWW-Authenticate: Digest realm="test", qop="auth", nonce="abc123", opaque="xyz"'], 'who?', 'Unauthorized');

        LaravelApp::boot(false);
        $origin->script(['/digest' => [$challenge, Answer::status(200, [], 'welcome')]]);
        $mark = $origin->mark();
        self::assertSame('welcome', self::response(Http::withDigestAuth('user', 'pass')->get($origin->url('/digest')))->body());
        $sent = $origin->received($mark);
        self::assertCount(2, $sent, 'Laravel alone: curl answers the challenge');
        self::assertStringStartsWith('Digest username="user", realm="test", nonce="abc123"', (string) $sent[1]->header('Authorization'));

        LaravelApp::boot();
        $mark = $origin->mark();
        self::assertRefused('auth', static fn() => Http::withDigestAuth('user', 'pass')->get($origin->url('/digest')));
        self::assertSame([], $origin->received($mark), 'nothing was sent');
    }

    /** @param \Closure(): mixed $send */
    private static function assertRefused(string $option, \Closure $send): void
    {
        try {
            $send();
            self::fail("\"{$option}\" cannot be honoured by the bridge yet");
        } catch (\Throwable $e) {
            self::assertStringContainsString("The Guzzle request option \"{$option}\" is not supported by WarmHttp\\Bridge\\Guzzle\\Handler", $e->getMessage(), $e::class);
        }
    }

    private static function origin(): EchoOrigin
    {
        return self::$origin ?? throw new \LogicException('started in setUpBeforeClass');
    }

    private static function response(mixed $response): Response
    {
        self::assertInstanceOf(Response::class, $response);

        return $response;
    }
}
