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
 * contrast, through Laravel's own Guzzle handler: the same on both.
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

    /** Guzzle's curl calls it with the download growing to its total; the bridge does the same. */
    #[DataProvider('providers')]
    public function testWithOptionsProgressSeesTheTransfer(bool $withWarmHttp): void
    {
        LaravelApp::boot($withWarmHttp);
        $calls = [];
        $progress = static function (int $downloadTotal, int $downloaded, int $uploadTotal, int $uploaded) use (&$calls): void {
            $calls[] = [$downloadTotal, $downloaded, $uploadTotal, $uploaded];
        };
        $origin = self::origin();
        $origin->script(['/progress' => Answer::status(200, [], str_repeat('p', 100_000))]);

        $response = self::response(Http::withOptions(['progress' => $progress])->get($origin->url('/progress')));

        self::assertSame(100_000, \strlen($response->body()));
        self::assertNotSame([], $calls);
        self::assertSame([100_000, 100_000, 0, 0], $calls[\count($calls) - 1]);
    }

    /** libcurl answers the challenge, on both: the second request carries the Digest header. */
    #[DataProvider('providers')]
    public function testWithDigestAuthAnswersTheChallenge(bool $withWarmHttp): void
    {
        LaravelApp::boot($withWarmHttp);
        $origin = self::origin();
        $challenge = Answer::status(401, ['WWW-Authenticate: Digest realm="test", qop="auth", nonce="abc123", opaque="xyz"'], 'who?', 'Unauthorized');
        $origin->script(['/digest' => [$challenge, Answer::status(200, [], 'welcome')]]);
        $mark = $origin->mark();

        self::assertSame('welcome', self::response(Http::withDigestAuth('user', 'pass')->post($origin->url('/digest'), ['a' => 1]))->body());

        $sent = $origin->received($mark);
        self::assertCount(2, $sent, 'a probe without the body, then the request with it');
        self::assertSame('', $sent[0]->body);
        self::assertStringStartsWith('Digest username="user", realm="test", nonce="abc123", uri="/digest"', (string) $sent[1]->header('Authorization'));
        self::assertSame('{"a":1}', $sent[1]->body);
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
