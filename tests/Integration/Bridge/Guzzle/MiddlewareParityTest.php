<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bridge\Guzzle;

use GuzzleHttp\Client as GuzzleClient;
use GuzzleHttp\Exception\BadResponseException;
use GuzzleHttp\Exception\ConnectException;
use GuzzleHttp\Exception\GuzzleException;
use GuzzleHttp\HandlerStack;
use GuzzleHttp\Middleware;
use GuzzleHttp\Promise\Utils;
use GuzzleHttp\TransferStats;
use PHPUnit\Framework\TestCase;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Bridge\Guzzle\Handler;
use WarmHttp\Rig\FreePort;
use WarmHttp\Rig\RawOrigin;
use WarmHttp\Rig\Rig;
use WarmHttp\Tests\Integration\Bridge\Support\PhpOrigin;

/**
 * Guzzle's middleware on WarmHttp's handler against the same middleware on Guzzle's default
 * handler, side by side in each test: the observations must be identical. (The protocol
 * version is left out: Guzzle's default asks for HTTP/1.1, the handler negotiates HTTP/2.)
 */
final class MiddlewareParityTest extends TestCase
{
    private static ?PhpOrigin $origin = null;
    private static ?RawOrigin $raw = null;

    public static function tearDownAfterClass(): void
    {
        self::$origin = null;
        self::$raw = null;
    }

    public function testRedirects(): void
    {
        $this->assertSameOnBothHandlers(static function (GuzzleClient $client): array {
            $response = $client->get(self::nginx('/redirect/3'), ['allow_redirects' => ['track_redirects' => true]]);

            return [self::describe($response), $response->getHeader('X-Guzzle-Redirect-History'), $response->getHeader('X-Guzzle-Redirect-Status-History')];
        });
    }

    public function testRedirectsBeyondTheLimitFail(): void
    {
        $this->assertSameOnBothHandlers(static fn(GuzzleClient $client): array => self::attempt(static fn() => $client->get(self::nginx('/redirect/3'), ['allow_redirects' => ['max' => 1]])));
    }

    public function testCookies(): void
    {
        $this->assertSameOnBothHandlers(static function (GuzzleClient $client): array {
            $set = $client->get(self::origin()->url('/cookie/set'), ['cookies' => $jar = new \GuzzleHttp\Cookie\CookieJar()]);
            $echo = $client->get(self::origin()->url('/cookie/echo'), ['cookies' => $jar]);

            $cookie = $jar->getCookieByName('session');

            return [(string) $set->getBody(), (string) $echo->getBody(), $cookie?->getValue()];
        });
    }

    public function testRetryOnServerErrorsAndOnRefusedConnections(): void
    {
        $refused = \sprintf('http://127.0.0.1:%d/nobody-listens', FreePort::pick());
        $this->assertSameOnBothHandlers(static function (GuzzleClient $client, HandlerStack $stack) use ($refused): array {
            $attempts = 0;
            $stack->push(Middleware::retry(static function (int $retries, RequestInterface $request, ?ResponseInterface $response, mixed $error) use (&$attempts): bool {
                ++$attempts;

                return $retries < 2 && ($error instanceof ConnectException || ($response?->getStatusCode() ?? 0) >= 500);
            }, static fn(): int => 1));

            $serverError = self::attempt(static fn() => $client->get(self::nginx('/status/503'), ['http_errors' => false]));
            $afterServerError = $attempts;
            $connectError = self::attempt(static fn() => $client->get($refused));

            return [$serverError, $afterServerError, $connectError, $attempts];
        });
    }

    public function testHistory(): void
    {
        $this->assertSameOnBothHandlers(static function (GuzzleClient $client, HandlerStack $stack): array {
            $container = [];
            $stack->push(Middleware::history($container));
            $client->get(self::nginx('/fast'));
            $client->post(self::nginx('/echo-body'), ['body' => 'hello']);
            self::attempt(static fn() => $client->get(self::nginx('/status/404')));

            $seen = [];
            foreach ((array) $container as $entry) {
                \assert(\is_array($entry) && $entry['request'] instanceof RequestInterface);
                $seen[] = [
                    $entry['request']->getMethod(),
                    (string) $entry['request']->getUri(),
                    $entry['response'] instanceof ResponseInterface ? self::describe($entry['response']) : null,
                    \is_object($entry['error']) ? $entry['error']::class : null,
                ];
            }

            return $seen;
        });
    }

    public function testOnStats(): void
    {
        $this->assertSameOnBothHandlers(static function (GuzzleClient $client): array {
            $seen = [];
            $onStats = static function (TransferStats $stats) use (&$seen): void {
                $handler = $stats->getHandlerStats();
                $seen[] = [
                    (string) $stats->getEffectiveUri(),
                    $stats->getResponse()?->getStatusCode(),
                    $stats->hasResponse(),
                    \is_float($stats->getTransferTime()) && $stats->getTransferTime() > 0,
                    \is_float($handler['total_time'] ?? null),
                    $handler['primary_ip'] ?? null,
                    $stats->getHandlerErrorData(),
                ];
            };
            $client->get(self::nginx('/fast'), ['on_stats' => $onStats]);
            self::attempt(static fn() => $client->get(self::nginx('/redirect/1'), ['on_stats' => $onStats]));

            return $seen;
        });
    }

    public function testHttpErrors(): void
    {
        $this->assertSameOnBothHandlers(static fn(GuzzleClient $client): array => [
            self::attempt(static fn() => $client->get(self::nginx('/status/404'))),
            self::attempt(static fn() => $client->get(self::nginx('/status/500'))),
            self::attempt(static fn() => $client->get(self::nginx('/status/500'), ['http_errors' => false])),
        ]);
    }

    public function testTransportErrorsMapToTheSameExceptionClasses(): void
    {
        $raw = self::raw();
        $this->assertSameOnBothHandlers(static fn(GuzzleClient $client): array => [
            self::attempt(static fn() => $client->get(\sprintf('http://127.0.0.1:%d/', FreePort::pick()))),
            self::attempt(static fn() => $client->get($raw->url('/reset-mid-body'))),
            self::attempt(static fn() => $client->get($raw->url('/stall'), ['timeout' => 0.3])),
        ]);
    }

    public function testSinkAndDecodeContent(): void
    {
        $this->assertSameOnBothHandlers(static function (GuzzleClient $client): array {
            $file = tempnam(sys_get_temp_dir(), 'warmhttp-sink-');
            $sunk = $client->get(self::nginx('/bytes/10k'), ['sink' => $file]);
            $resource = fopen('php://temp', 'w+');
            $intoResource = $client->get(self::nginx('/fast'), ['sink' => $resource]);
            $gzip = $client->get(self::origin()->url('/gzip'), ['headers' => ['Accept-Encoding' => 'gzip']]);
            $raw = $client->get(self::origin()->url('/gzip'), ['headers' => ['Accept-Encoding' => 'gzip'], 'decode_content' => false]);

            return [
                md5((string) file_get_contents($file)), md5((string) $sunk->getBody()), filesize($file), (string) $intoResource->getBody(),
                (string) $gzip->getBody(), $gzip->getHeader('x-encoded-content-encoding'), $gzip->getHeaderLine('Content-Length'),
                md5((string) $raw->getBody()), $raw->getHeaderLine('Content-Encoding'),
            ];
        });
    }

    public function testConcurrentPromises(): void
    {
        $this->assertSameOnBothHandlers(static function (GuzzleClient $client): array {
            $promises = [
                'fast' => $client->getAsync(self::nginx('/fast')),
                'slow' => $client->getAsync(self::nginx('/slow?ms=50')),
                'missing' => $client->getAsync(self::nginx('/status/404')),
                'chained' => $client->getAsync(self::nginx('/echo/a'))->then(static fn(ResponseInterface $r): string => 'got ' . $r->getBody()),
            ];

            $seen = [];
            foreach ((array) Utils::settle($promises)->wait() as $key => $settled) {
                \assert(\is_array($settled));
                $seen[$key] = [$settled['state'] ?? null, self::describeOutcome($settled['value'] ?? $settled['reason'] ?? null)];
            }

            return $seen;
        });
    }

    /** @param callable(GuzzleClient, HandlerStack): mixed $scenario */
    private function assertSameOnBothHandlers(callable $scenario): void
    {
        $guzzleStack = HandlerStack::create();
        $warmStack = HandlerStack::create(new Handler());
        $withGuzzle = $scenario(new GuzzleClient(['handler' => $guzzleStack]), $guzzleStack);
        $withWarmHttp = $scenario(new GuzzleClient(['handler' => $warmStack]), $warmStack);

        self::assertSame($withGuzzle, $withWarmHttp);
        self::assertNotEmpty($withWarmHttp);
    }

    /**
     * @param callable(): mixed $send
     *
     * @return array{string, mixed}
     */
    private static function attempt(callable $send): array
    {
        try {
            return ['ok', self::describeOutcome($send())];
        } catch (GuzzleException $e) {
            return ['error', self::describeOutcome($e)];
        }
    }

    private static function describeOutcome(mixed $outcome): mixed
    {
        return match (true) {
            $outcome instanceof ResponseInterface => self::describe($outcome),
            // Transport errors compare by class only: Guzzle keeps a partial response (and curl's
            // wording) on some; WarmHttp never hands out a half-received response.
            $outcome instanceof BadResponseException => [$outcome::class, $outcome->getMessage()],
            $outcome instanceof \Throwable => $outcome::class,
            default => $outcome,
        };
    }

    /** @return array{int, string, string} */
    private static function describe(ResponseInterface $response): array
    {
        return [$response->getStatusCode(), $response->getReasonPhrase(), (string) $response->getBody()];
    }

    private static function nginx(string $path): string
    {
        return Rig::shared()->nginx()->url('plain', $path);
    }

    private static function origin(): PhpOrigin
    {
        return self::$origin ??= PhpOrigin::start();
    }

    private static function raw(): RawOrigin
    {
        return self::$raw ??= Rig::shared()->rawOrigin();
    }
}
