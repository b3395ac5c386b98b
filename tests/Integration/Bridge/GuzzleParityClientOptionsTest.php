<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bridge;

use GuzzleHttp\Client as GuzzleClient;
use WarmHttp\Tests\Integration\Bridge\Parity\Answer;
use WarmHttp\Tests\Integration\Bridge\Parity\EchoOrigin;
use WarmHttp\Tests\Integration\Bridge\Parity\Normalise;
use WarmHttp\Tests\Integration\Bridge\Parity\ParityResult;
use WarmHttp\Tests\Integration\Bridge\Parity\ParityTestCase;

/**
 * The Guzzle request options that were refused until the Client had options for them (issue
 * 14): `progress`, digest and NTLM `auth` (also as the raw `curl` pair Guzzle's Client makes of
 * it), `debug` and `force_ip_resolve`, side by side on Guzzle's default handler and WarmHttp's
 * against the echoing origin. The TLS ones (crypto_method, capath, cert types) are in
 * GuzzleParityOptionsTlsTest.
 */
final class GuzzleParityClientOptionsTest extends ParityTestCase
{
    private const BODY_BYTES = 300_000;

    public function testProgressSeesTheDownloadGrowToItsTotal(): void
    {
        $result = self::parity()->scenario(static function (GuzzleClient $client, EchoOrigin $origin): array {
            $calls = [];
            $response = $client->get($origin->url('/big'), ['progress' => static function (int $dt, int $d, int $ut, int $u) use (&$calls): void {
                $calls[] = [$dt, $d, $ut, $u];
            }]);

            return self::progressFacts($calls) + ['body bytes' => \strlen((string) $response->getBody())];
        }, ['/big' => Answer::status(200, [], str_repeat('b', self::BODY_BYTES))]);

        self::assertSame([self::BODY_BYTES, self::BODY_BYTES, 0, 0], $result->guzzle->seen->facts['last'] ?? null);
        self::assertParity($result);
    }

    public function testProgressSeesTheUploadGrowToItsTotal(): void
    {
        $result = self::parity()->scenario(static function (GuzzleClient $client, EchoOrigin $origin): array {
            $calls = [];
            $client->put($origin->url('/up'), ['body' => str_repeat('u', self::BODY_BYTES), 'progress' => static function (int $dt, int $d, int $ut, int $u) use (&$calls): void {
                $calls[] = [$dt, $d, $ut, $u];
            }]);

            return self::progressFacts($calls);
        });

        self::assertSame([2, 2, self::BODY_BYTES, self::BODY_BYTES], $result->guzzle->seen->facts['last'] ?? null);
        self::assertParity($result);
    }

    public function testAnExceptionInProgressFailsTheRequestAlike(): void
    {
        $result = self::parity()->request('GET', '/throws', ['progress' => static function (): void {
            throw new \RuntimeException('stop here');
        }]);

        self::assertParity($result, ['received'], 'whether the request reached the origin before the first call is timing');
    }

    /** @return iterable<string, array{string, \Closure(): array<string, mixed>}> */
    public static function digestCases(): iterable
    {
        yield 'GET' => ['GET', static fn(): array => []];
        yield 'POST with a body' => ['POST', static fn(): array => ['body' => 'payload']];
        yield 'PUT with a large body' => ['PUT', static fn(): array => ['body' => str_repeat('p', 200_000)]];
        yield 'POST with a stream that cannot seek' => ['POST', static fn(): array => ['body' => new \GuzzleHttp\Psr7\NoSeekStream(\GuzzleHttp\Psr7\Utils::streamFor('unsized'))]];
    }

    /**
     * libcurl answers the challenge: the first request goes without credentials (a body-less
     * probe for POST and PUT), the second with the Digest header.
     *
     * @param \Closure(): array<string, mixed> $options
     */
    #[\PHPUnit\Framework\Attributes\DataProvider('digestCases')]
    public function testDigestAuthAnswersTheChallenge(string $method, \Closure $options): void
    {
        $result = self::parity()->request($method, '/digest', static fn(): array => ['auth' => ['user', 'pass', 'digest'], 'timeout' => 10] + $options(), [
            Answer::status(401, ['WWW-Authenticate: Digest realm="test", qop="auth", nonce="abc123", opaque="xyz"'], 'who?', 'Unauthorized'),
            Answer::status(200, [], 'welcome'),
        ]);

        self::assertCount(2, $result->guzzle->received);
        self::assertStringStartsWith('Digest username="user", realm="test", nonce="abc123"', (string) $result->guzzle->received[1]->header('Authorization'));
        self::assertSameWithoutNonces($result);
    }

    public function testDigestCredentialsThroughTheCurlOptionAreTheSame(): void
    {
        $challenge = [Answer::status(401, ['WWW-Authenticate: Digest realm="test", nonce="n2"'], '', 'Unauthorized'), Answer::status(200, [], 'in')];
        $result = self::parity()->request('GET', '/curl-digest', ['curl' => [\CURLOPT_HTTPAUTH => \CURLAUTH_DIGEST, \CURLOPT_USERPWD => 'me:pw']], $challenge);

        self::assertSame('in', $result->warm->seen->facts['body'] ?? null);
        self::assertSameWithoutNonces($result);
    }

    /**
     * No NTLM server here: what reached the origin is compared up to the server's challenge
     * (libcurl sends the type-1 message first, over HTTP/1.1), and a server that never sends a
     * type-2 message ends both sides with its 401.
     */
    public function testNtlmAuthSendsTheSameNegotiation(): void
    {
        $result = self::parity()->request('GET', '/ntlm', ['auth' => ['user', 'pass', 'ntlm']], Answer::status(401, ['WWW-Authenticate: NTLM'], 'who?', 'Unauthorized'));

        self::assertStringStartsWith('NTLM TlRMTVNTUAAB', (string) $result->guzzle->received[0]->header('Authorization'));
        self::assertParity($result);
    }

    public function testDebugWritesCurlsVerboseLogToTheStream(): void
    {
        $result = self::parity()->scenario(static function (GuzzleClient $client, EchoOrigin $origin): array {
            $log = fopen('php://temp', 'w+');
            self::assertIsResource($log);
            $client->post($origin->url('/debug'), ['debug' => $log, 'body' => 'abc']);
            rewind($log);
            $text = (string) stream_get_contents($log);

            return [
                'request line' => str_contains($text, '> POST /debug HTTP/1.1'),
                'status line' => str_contains($text, '< HTTP/1.1 200 OK'),
                'connected' => preg_match('/^\* (Connected to|  Trying) 127\.0\.0\.1/m', $text) === 1,
            ];
        });

        self::assertSame(['request line' => true, 'status line' => true, 'connected' => true], $result->guzzle->seen->facts);
        self::assertParity($result);
    }

    public function testADebugLogIsOnlyTheRequestsOwn(): void
    {
        $result = self::parity()->scenario(static function (GuzzleClient $client, EchoOrigin $origin): array {
            $log = fopen('php://temp', 'w+');
            self::assertIsResource($log);
            $client->get($origin->url('/one'), ['debug' => $log]);
            $client->get($origin->url('/two'));
            rewind($log);
            $text = (string) stream_get_contents($log);

            return ['one' => str_contains($text, 'GET /one'), 'two' => str_contains($text, 'GET /two')];
        });

        self::assertSame(['one' => true, 'two' => false], $result->warm->seen->facts);
        self::assertParity($result);
    }

    /** The origin listens on 127.0.0.1 only: "localhost" forced to IPv6 fails to connect, on both sides. */
    public function testForceIpResolveChoosesTheAddressFamily(): void
    {
        $result = self::parity()->scenario(static function (GuzzleClient $client, EchoOrigin $origin): array {
            $url = 'http://localhost:' . $origin->port() . '/family';
            $facts = ['v4' => (string) $client->get($url, ['force_ip_resolve' => 'v4'])->getBody()];
            try {
                $client->get($url, ['force_ip_resolve' => 'v6', 'connect_timeout' => 5]);
                $facts['v6'] = 'answered';
            } catch (\GuzzleHttp\Exception\ConnectException $e) {
                $facts['v6'] = [$e::class, $e->getHandlerContext()['errno'] ?? null, Normalise::text($e->getMessage(), $origin->port())];
            }

            return $facts;
        }, ['/family' => Answer::status(200, [], 'over v4')]);

        self::assertSame('over v4', $result->warm->seen->facts['v4'] ?? null);
        self::assertParity($result);
    }

    /**
     * @param list<list<int>> $calls
     *
     * @return array<string, mixed>
     */
    private static function progressFacts(array $calls): array
    {
        $sums = array_map(static fn(array $c): int => $c[1] + $c[3], $calls);
        $sorted = $sums;
        sort($sorted);

        return ['called' => $calls !== [], 'first' => $calls[0] ?? null, 'last' => $calls === [] ? null : $calls[\count($calls) - 1], 'never decreases' => $sums === $sorted];
    }

    /** The client nonce and the response hash differ on every request, on either side. */
    private static function assertSameWithoutNonces(ParityResult $result): void
    {
        $compared = $result->compared();
        $json = array_map(static fn(array $side): string => (string) preg_replace('/(cnonce|response)=\\\\"[^"\\\\]*\\\\"/', '$1={x}', json_encode($side, \JSON_THROW_ON_ERROR | \JSON_PRETTY_PRINT)), $compared);
        self::assertStringContainsString('response={x}', $json['guzzle']);
        self::assertSame($json['guzzle'], $json['warm']);
    }
}
