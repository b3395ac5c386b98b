<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bridge;

use GuzzleHttp\Client as GuzzleClient;
use GuzzleHttp\Exception\GuzzleException;
use GuzzleHttp\Middleware;
use GuzzleHttp\Pool;
use GuzzleHttp\Promise\PromiseInterface;
use GuzzleHttp\Psr7\Request;
use GuzzleHttp\Psr7\Response;
use GuzzleHttp\Psr7\Utils;
use GuzzleHttp\TransferStats;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Tests\Integration\Bridge\Parity\Answer;
use WarmHttp\Tests\Integration\Bridge\Parity\EchoOrigin;
use WarmHttp\Tests\Integration\Bridge\Parity\ParityTestCase;

/**
 * Issue 14's behaviour bullets, each case run on Guzzle's default handler and on WarmHttp's
 * (tests/Integration/Bridge/Parity): what reached the origin and what the caller saw must be
 * the same. Timing facts are booleans against generous bounds, so both sides compare equal.
 */
final class GuzzleParityBehaviourTest extends ParityTestCase
{
    /** @return iterable<string, array{string, array<string, mixed>}> */
    public static function wireCases(): iterable
    {
        yield 'GET' => ['GET', []];
        yield 'HEAD' => ['HEAD', []];
        yield 'DELETE' => ['DELETE', []];
        yield 'bodiless POST' => ['POST', []];
        yield 'bodiless PUT' => ['PUT', []];
        yield 'bodiless PATCH' => ['PATCH', []];
        yield 'PUT with a body' => ['PUT', ['body' => 'abc']];
        yield 'DELETE with a body' => ['DELETE', ['body' => 'abc']];
        yield 'GET with a body' => ['GET', ['body' => 'abc']];
        yield 'OPTIONS with a body' => ['OPTIONS', ['body' => 'abc']];
        yield 'POST form_params' => ['POST', ['form_params' => ['a' => '1', 'b' => 'x y']]];
        yield 'POST json' => ['POST', ['json' => ['a' => 1]]];
        yield 'empty header value' => ['GET', ['headers' => ['X-Empty' => '']]];
        yield 'version 1.0' => ['GET', ['version' => '1.0']];
        yield 'version 1.0 POST' => ['POST', ['version' => '1.0', 'body' => 'abc']];
        yield 'HEAD with a body (Guzzle sends none)' => ['HEAD', ['body' => 'abc']];
        yield 'QUERY with a body' => ['QUERY', ['body' => 'abc']];
        yield 'TRACE' => ['TRACE', []];
    }

    /** @param array<string, mixed> $options */
    #[\PHPUnit\Framework\Attributes\DataProvider('wireCases')]
    public function testOnTheWire(string $method, array $options): void
    {
        self::assertParity(self::parity()->request($method, '/wire', $options));
    }

    /**
     * `version => 2.0` on http://: Guzzle's curl asks for h2c by Upgrade and goes on in HTTP/1.1
     * when the server ignores it; the request must reach an HTTP/1.1 server and be answered.
     */
    public function testVersion2OnPlainHttpFallsBackToHttp11(): void
    {
        $result = self::parity()->request('GET', '/h2c', ['version' => '2.0'], Answer::status(200, [], 'one-one'));

        self::assertSame('one-one', $result->guzzle->seen->facts['body'] ?? null, 'Guzzle\'s curl reaches an HTTP/1.1 server');
        self::assertContains('Upgrade: h2c', $result->warm->received[0]->headers, 'the offer, as Guzzle\'s curl makes it (http_version "2-upgrade")');
        self::assertParity($result);
    }

    public function testResponsesAreGuzzleResponsesWithADetachableBody(): void
    {
        $result = self::parity()->scenario(static function (GuzzleClient $client, EchoOrigin $origin): array {
            $body = $client->get($origin->url('/detach'))->getBody();
            $metadata = $body->getMetadata();
            $body->read(2);
            $resource = $body->detach();

            return [
                'resource' => \is_resource($resource),
                'rest' => \is_resource($resource) ? stream_get_contents($resource) : null,
                'all' => \is_resource($resource) ? stream_get_contents($resource, -1, 0) : null,
                'size after detach' => $body->getSize(),
                'readable after detach' => $body->isReadable(),
                'metadata' => $metadata,
                'metadata after detach' => $body->getMetadata(),
                'uri after detach' => $body->getMetadata('uri'),
            ];
        }, ['/detach' => Answer::status(200, [], 'abcdef')]);

        self::assertSame(['resource' => true, 'rest' => 'cdef', 'all' => 'abcdef', 'size after detach' => null, 'readable after detach' => false], \array_slice($result->guzzle->seen->facts, 0, 5));
        self::assertSame('php://temp', ((array) ($result->guzzle->seen->facts['metadata'] ?? []))['uri'] ?? null);
        self::assertParity($result);
        self::assertParity(self::parity()->request('GET', '/type', [], Answer::status(200, ['X-A: 1'], 'x', 'Fine')));
    }

    public function testAStreamedResponseIsAGuzzleResponseToo(): void
    {
        $result = self::parity()->scenario(static function (GuzzleClient $client, EchoOrigin $origin): array {
            $response = $client->get($origin->url('/streamed'), ['stream' => true]);
            $first = $response->getBody()->read(3);

            return ['class' => $response::class, 'first' => $first, 'rest' => $response->getBody()->getContents()];
        }, ['/streamed' => Answer::status(200, [], 'abcdef')]);

        self::assertSame(['class' => \GuzzleHttp\Psr7\Response::class, 'first' => 'abc', 'rest' => 'def'], $result->guzzle->seen->facts);
        // Guzzle sends `stream` requests through its StreamHandler (PHP's http wrapper): other
        // header order and `Connection: close`; the bridge keeps them on warm connections.
        self::assertParity($result, ['received']);
    }

    /**
     * on_stats gets the caller's GuzzleHttp\Psr7\Response, decoded as the caller sees it, and
     * curl's info about the bytes as they came (the encoded length and size).
     */
    public function testOnStatsSeesAGuzzleResponse(): void
    {
        $gzipped = gzencode(str_repeat('stats ', 100));
        $result = self::parity()->scenario(static function (GuzzleClient $client, EchoOrigin $origin): array {
            $facts = [];
            foreach (['/stats', '/stats-gzip'] as $path) {
                $client->get($origin->url($path), ['decode_content' => true, 'on_stats' => static function (TransferStats $stats) use (&$facts, $path): void {
                    $response = $stats->getResponse();
                    $info = $stats->getHandlerStats();
                    $facts[$path] = [
                        'class' => \is_object($response) ? $response::class : null,
                        'headers' => $response?->getHeaders(),
                        'body' => (string) $response?->getBody(),
                        'http_code' => $info['http_code'] ?? null,
                        'download_content_length' => $info['download_content_length'] ?? null,
                        'size_download' => $info['size_download'] ?? null,
                        'error data' => $stats->getHandlerErrorData(),
                    ];
                }]);
            }

            return $facts;
        }, ['/stats' => Answer::status(200, ['X-A: 1'], 'plain'), '/stats-gzip' => Answer::status(200, ['Content-Encoding: gzip'], (string) $gzipped)]);

        $gzip = $result->guzzle->seen->facts['/stats-gzip'] ?? null;
        self::assertIsArray($gzip);
        self::assertSame(\GuzzleHttp\Psr7\Response::class, $gzip['class'] ?? null);
        self::assertParity($result);
    }

    /** A request without a timeout waits as long as the answer takes, on both; with one, both give up. */
    public function testNoTimeoutUnlessOneIsGiven(): void
    {
        $slow = Answer::status(200, [], 'late')->delayed(1200);
        $waited = self::parity()->request('GET', '/late', [], $slow);
        self::assertSame('late', $waited->warm->seen->facts['body'] ?? null);
        self::assertParity($waited);

        $result = self::parity()->request('GET', '/late', ['timeout' => 0.3], $slow);
        self::assertSame(\GuzzleHttp\Exception\ConnectException::class, $result->warm->seen->facts['exception'] ?? null);
        // the wording and handler context of a timeout are ErrorMap's (issue 14, "Errors")
        self::assertParity($result, ['seen.message', 'seen.context', 'seen.errno']);
    }

    /** @return iterable<string, array{string, non-empty-string}> */
    public static function badStatusLines(): iterable
    {
        // libcurl itself refuses a status under 100; Guzzle's Response constructor one over 599.
        yield '99' => ["HTTP/1.1 99 Low\r\nContent-Length: 0\r\n\r\n", 'cURL error 1: Unsupported response code in HTTP response'];
        yield '600' => ["HTTP/1.1 600 High\r\nContent-Length: 0\r\n\r\n", 'An error was encountered while creating the response'];
        yield '999' => ["HTTP/1.1 999 Higher\r\nContent-Length: 0\r\n\r\n", 'An error was encountered while creating the response'];
    }

    /** @param non-empty-string $message */
    #[\PHPUnit\Framework\Attributes\DataProvider('badStatusLines')]
    public function testStatusCodesOutside100To599AreRefused(string $raw, string $message): void
    {
        $result = self::parity()->request('GET', '/status', [], Answer::raw($raw));

        $seen = $result->guzzle->seen->facts['message'] ?? null;
        self::assertIsString($seen);
        self::assertStringStartsWith($message, $seen);
        // errno and handler context: ErrorMap's (issue 14, "Errors")
        self::assertParity($result, ['seen.errno', 'seen.context']);
    }

    public function testDelayedRequestsReturnAtOnceAndRunTogether(): void
    {
        $result = self::parity()->scenario(static function (GuzzleClient $client, EchoOrigin $origin): array {
            $started = microtime(true);
            $promises = [];
            for ($i = 0; $i < 4; ++$i) {
                $promises[] = $client->getAsync($origin->url('/delay'), ['delay' => 500]);
            }
            $returned = microtime(true) - $started;
            $statuses = [];
            $responses = \GuzzleHttp\Promise\Utils::all($promises)->wait();
            \assert(\is_array($responses));
            foreach ($responses as $response) {
                \assert($response instanceof ResponseInterface);
                $statuses[] = $response->getStatusCode();
            }
            $total = microtime(true) - $started;

            return [
                'returned at once' => $returned < 0.25, // a usleep per delay: 2 s
                'sent after the delay, together' => $total >= 0.45 && $total < 1.4, // one after the other: 2 s
                'statuses' => $statuses,
            ];
        });

        self::assertSame(['returned at once' => true, 'sent after the delay, together' => true, 'statuses' => [200, 200, 200, 200]], $result->warm->seen->facts);
        self::assertParity($result);
        self::assertCount(4, $result->warm->received);
    }

    /** A Pool whose retries back off 1 s takes about 1 s, and a decider typed ?Response gets Guzzle's Response. */
    public function testAPoolWithRetriesBacksOffConcurrently(): void
    {
        $script = [];
        for ($i = 1; $i <= 5; ++$i) {
            $script['/retry/' . $i] = [Answer::status(503, [], 'busy', 'Service Unavailable'), Answer::status(200, [], 'done ' . $i)];
        }
        $result = self::parity()->scenario(static function (GuzzleClient $client, EchoOrigin $origin): array {
            $stack = $client->getConfig('handler');
            \assert($stack instanceof \GuzzleHttp\HandlerStack);
            $stack->push(Middleware::retry(
                static fn(int $retries, Request $request, ?Response $response = null): bool => $retries < 1 && $response?->getStatusCode() === 503,
                static fn(): int => 1000,
            ));
            $requests = static function () use ($origin): \Generator {
                for ($i = 1; $i <= 5; ++$i) {
                    yield new Request('GET', $origin->url('/retry/' . $i));
                }
            };
            $bodies = [];
            $started = microtime(true);
            (new Pool($client, $requests(), [
                'concurrency' => 5,
                'fulfilled' => static function (ResponseInterface $response, int $index) use (&$bodies): void {
                    $bodies[$index] = (string) $response->getBody();
                },
            ]))->promise()->wait();
            $total = microtime(true) - $started;
            ksort($bodies);

            return ['about one second' => $total >= 0.95 && $total < 1.7, 'bodies' => $bodies];
        }, $script);

        self::assertSame(['about one second' => true, 'bodies' => ['done 1', 'done 2', 'done 3', 'done 4', 'done 5']], $result->warm->seen->facts);
        self::assertParity($result, ['received']); // the order retries arrive in is the pool's
        self::assertCount(10, $result->warm->received);
    }

    public function testRejectingInOnHeadersLeavesTheSinkEmpty(): void
    {
        $result = self::parity()->scenario(static function (GuzzleClient $client, EchoOrigin $origin): array {
            $sink = Utils::streamFor(fopen('php://temp', 'w+'));
            try {
                $client->get($origin->url('/headers'), ['sink' => $sink, 'on_headers' => static function (ResponseInterface $response): void {
                    throw new \RuntimeException('refused at ' . $response->getStatusCode() . ' as ' . $response::class);
                }]);
            } catch (GuzzleException $e) {
                return ['exception' => $e::class, 'message' => $e->getMessage(), 'previous' => $e->getPrevious()?->getMessage(), 'sink' => (string) $sink];
            }

            return ['exception' => null];
        }, ['/headers' => Answer::status(200, [], str_repeat('b', 10000))]);

        self::assertSame('', $result->guzzle->seen->facts['sink'] ?? null);
        self::assertParity($result);
    }

    /** A handler-level cancel rejects with CancellationException and reports no stats. */
    public function testCancelRejectsWithCancellationExceptionAndNoStats(): void
    {
        $result = self::parity()->scenario(static function (GuzzleClient $client, EchoOrigin $origin): array {
            $stats = [];
            $slow = $client->getAsync($origin->url('/slow'), ['on_stats' => static function (TransferStats $s) use (&$stats): void {
                $stats[] = $s->getHandlerErrorData();
            }]);
            $client->getAsync($origin->url('/fast'))->wait(); // both go out; the slow one is in flight
            $slow->cancel();
            try {
                $slow->wait();
            } catch (\Throwable $e) {
                return ['state' => $slow->getState(), 'exception' => $e::class, 'message' => $e->getMessage(), 'on_stats calls' => \count($stats)];
            }

            return ['state' => $slow->getState()];
        }, ['/slow' => Answer::status(200, [], 'late')->delayed(800), '/fast' => Answer::status(200, [], 'fast')]);

        self::assertSame(PromiseInterface::REJECTED, $result->warm->seen->facts['state'] ?? null);
        self::assertSame(\GuzzleHttp\Promise\CancellationException::class, $result->warm->seen->facts['exception'] ?? null);
        self::assertSame(0, $result->warm->seen->facts['on stats calls'] ?? $result->warm->seen->facts['on_stats calls'] ?? null);
        self::assertParity($result);
    }

    /**
     * A request nobody waits for, from a Client then dropped, is never sent (Guzzle's
     * CurlMultiHandler sends on its own waits only): not even during a later, unrelated wait.
     */
    public function testARequestNeverAwaitedFromADroppedClientIsNeverSent(): void
    {
        $result = self::parity()->scenario(static function (GuzzleClient $client, EchoOrigin $origin, \Closure $stacks): array {
            $dropped = new GuzzleClient(['handler' => $stacks()]);
            $dropped->getAsync($origin->url('/never'));
            unset($dropped);
            $client->get($origin->url('/unrelated')); // an unrelated wait
            usleep(100_000);

            return ['paths' => array_map(static fn($r): string => $r->line, $origin->received())];
        });

        self::assertParity($result, ['seen']); // the origin's whole log differs by the other side's requests
        self::assertSame(['GET /unrelated HTTP/1.1'], array_map(static fn($r): string => $r->line, $result->warm->received));
    }
}
