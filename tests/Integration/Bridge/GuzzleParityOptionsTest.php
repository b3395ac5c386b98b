<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bridge;

use GuzzleHttp\Client as GuzzleClient;
use GuzzleHttp\TransferStats;
use PHPUnit\Framework\Attributes\DataProvider;
use WarmHttp\Rig\FreePort;
use WarmHttp\Tests\Integration\Bridge\Parity\Answer;
use WarmHttp\Tests\Integration\Bridge\Parity\EchoOrigin;
use WarmHttp\Tests\Integration\Bridge\Parity\Normalise;
use WarmHttp\Tests\Integration\Bridge\Parity\ParityTestCase;

/**
 * The option half of the parity suite: request options validated, mapped or refused, and
 * failures (message, class, handler context, on_stats) through Guzzle's default handler and
 * through WarmHttp's, against the echo origin on loopback. Every ignored path is a documented
 * difference (docs/bridges.md).
 */
final class GuzzleParityOptionsTest extends ParityTestCase
{
    /** A closed loopback port: a request that went past the proxy would still stay on loopback. */
    private const TARGET = 'http://127.0.0.2:9';

    /** What the pool does not keep of a failed transfer (docs/bridges.md, Errors). */
    private const FAILED_TRANSFER_INFO = ['seen.stats.scheme', 'seen.stats.primary_ip', 'seen.stats.http_code', 'seen.stats.has_response', 'seen.context.http_code'];

    private const TIMEOUT_DIFFERENCES = ['seen.message', 'seen.context.error', ...self::FAILED_TRANSFER_INFO];

    /** @return iterable<string, array{array<string, mixed>}> */
    public static function invalidValues(): iterable
    {
        yield 'on_headers not callable' => [['on_headers' => 'x']];
        yield 'on_trailers not callable' => [['on_trailers' => 'x']];
        yield 'progress not callable' => [['progress' => 'x']];
        yield 'unknown crypto_method' => [['crypto_method' => 12345]];
        yield 'unknown crypto_method_max' => [['crypto_method_max' => 12345]];
        yield 'crypto range upside down' => [['crypto_method' => \STREAM_CRYPTO_METHOD_TLSv1_2_CLIENT, 'crypto_method_max' => \STREAM_CRYPTO_METHOD_TLSv1_0_CLIENT]];
        yield 'protocols outside http/https' => [['protocols' => ['ftp']]];
        yield 'an http URL with protocols https' => [['protocols' => ['https']]];
        yield 'a missing certificate' => [['cert' => '/nonexistent/client.pem']];
        yield 'a certificate of another type' => [['cert' => 5]];
        yield 'a missing key' => [['ssl_key' => ['/nonexistent/client.key', 'pw']]];
        yield 'a missing CA bundle' => [['verify' => '/nonexistent/ca.pem']];
        yield 'multiplex not a mode' => [['multiplex' => 'sometimes']];
    }

    /** @param array<string, mixed> $options */
    #[DataProvider('invalidValues')]
    public function testAnInvalidValueIsRefusedAsGuzzleRefusesIt(array $options): void
    {
        $result = self::parity()->request('GET', '/invalid', self::withStats($options));

        self::assertParity($result);
        self::assertArrayHasKey('exception', $result->guzzle->seen->facts);
        self::assertSame([], $result->guzzle->received, 'nothing was sent');
    }

    /** @return iterable<string, array{array<string, mixed>}> */
    public static function acceptedValues(): iterable
    {
        yield 'verify 10 (read as true)' => [['verify' => 10]];
        yield 'stream_context not an array (only the stream handler reads it)' => [['stream_context' => 'x']];
        yield 'protocols http' => [['protocols' => ['http', 'https']]];
        yield 'force_ip_resolve v4 to 127.0.0.1' => [['force_ip_resolve' => 'v4']];
        yield 'force_ip_resolve of another value (ignored)' => [['force_ip_resolve' => 'v5']];
        yield 'crypto_method 1.2 (Laravel\'s floor)' => [['crypto_method' => \STREAM_CRYPTO_METHOD_TLSv1_2_CLIENT]];
        yield 'crypto_method_max 1.3' => [['crypto_method_max' => \STREAM_CRYPTO_METHOD_TLSv1_3_CLIENT]];
        yield 'debug false' => [['debug' => false]];
        yield 'proxy no *' => [['proxy' => ['http' => 'http://127.0.0.1:9', 'no' => ['*']]]];
        yield 'proxy no list matching' => [['proxy' => ['http' => 'http://127.0.0.1:9', 'no' => ['127.0.0.1']]]];
        yield 'proxy for the other scheme only' => [['proxy' => ['https' => 'http://127.0.0.1:9']]];
        yield 'proxy empty string (none)' => [['proxy' => '']];
        yield 'curl options the pool sets anyway' => [['curl' => [\CURLOPT_NOSIGNAL => true, \CURLOPT_TCP_NODELAY => true]]];
        yield 'curl timeout' => [['curl' => [\CURLOPT_TIMEOUT_MS => 5000, \CURLOPT_CONNECTTIMEOUT => 5]]];
        yield 'read_timeout on a prompt answer' => [['read_timeout' => 5]];
        yield 'connect_timeout' => [['connect_timeout' => 5]];
        yield 'basic auth' => [['auth' => ['user', 'pass']]];
        yield 'query' => [['query' => ['a' => 'b c', 'd' => '1']]];
        yield 'multiplex wait' => [['multiplex' => 'wait']];
    }

    /** @param array<string, mixed> $options */
    #[DataProvider('acceptedValues')]
    public function testAnAcceptedValueGivesTheSameExchange(array $options): void
    {
        $answer = Answer::status(200, ['X-Case: 1'], 'accepted');

        self::assertParity(self::parity()->request('GET', '/accepted', $options, $answer), ['seen.class']);
    }

    public function testARefusedConnectionFailsAlikeWithTheSameContextAndStats(): void
    {
        $closed = 'http://127.0.0.1:' . FreePort::pick() . '/nobody';
        $result = self::parity()->scenario(static fn(GuzzleClient $client): array => self::failure($client, $closed));

        self::assertParity($result);
        self::assertStringStartsWith('cURL error 7: Failed to connect to 127.0.0.1 port', self::text($result->warm->seen->facts['message'] ?? null));
    }

    /** @return iterable<string, array{Answer, list<string>}> */
    public static function brokenAnswers(): iterable
    {
        // The pool's connection to the origin is warm from earlier cases, Guzzle's fresh Client
        // has none: a safe request that gets nothing on a reused connection is sent once more on
        // a new one (as libcurl itself does on a reused connection), so the origin may see it twice.
        yield 'closed without an answer (52)' => [Answer::raw('')->closing(), ['received']];
        yield 'a truncated body (18)' => [Answer::raw("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort")->closing(), []];
        yield 'not HTTP (1 or 8)' => [Answer::raw("garbage garbage\r\n\r\n")->closing(), []];
        yield 'a broken chunked body (56)' => [Answer::raw("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")->closing(), []];
    }

    /** @param list<string> $ignore */
    #[DataProvider('brokenAnswers')]
    public function testABrokenAnswerFailsAlike(Answer $answer, array $ignore): void
    {
        $result = self::parity()->scenario(static fn(GuzzleClient $client, EchoOrigin $origin): array => self::failure($client, $origin->url('/broken')), ['/broken' => $answer]);

        // Same class, message, errno and error; the pool keeps neither a failed transfer's curl
        // info nor the head of an answer that broke off (Guzzle hands it to on_stats).
        self::assertParity($result, [...self::FAILED_TRANSFER_INFO, ...$ignore]);
    }

    public function testATimeoutIsCurlError28AConnectExceptionOnBothSides(): void
    {
        $result = self::parity()->scenario(static function (GuzzleClient $client, EchoOrigin $origin): array {
            return self::failure($client, $origin->url('/late'), ['timeout' => 0.3]);
        }, ['/late' => Answer::status(200, [], 'late')->delayed(1200)]);

        // libcurl's own words for a timeout ("Operation timed out after N milliseconds with 0
        // bytes received") are not kept by the pool: the message says it in WarmHttp's words. A
        // failed transfer's curl info is not kept either: where it had connected (scheme, IP) is
        // unknown to the handler (docs/bridges.md).
        self::assertParity($result, self::TIMEOUT_DIFFERENCES);
        self::assertSame(\GuzzleHttp\Exception\ConnectException::class, $result->warm->seen->facts['exception']);
        self::assertMatchesRegularExpression('/^cURL error 28: .+ \(see https:\/\/curl\.se\/libcurl\/c\/libcurl-errors\.html\) for http:\/\/127\.0\.0\.1:\d+\/late$/', self::text($result->warm->seen->facts['message'] ?? null));
    }

    public function testACurlTimeoutOptionTakesEffect(): void
    {
        $result = self::parity()->scenario(static function (GuzzleClient $client, EchoOrigin $origin): array {
            return self::failure($client, $origin->url('/late-curl'), ['curl' => [\CURLOPT_TIMEOUT_MS => 300]]);
        }, ['/late-curl' => Answer::status(200, [], 'late')->delayed(1200)]);

        self::assertParity($result, self::TIMEOUT_DIFFERENCES);
        self::assertSame(28, self::errno($result->warm->seen->facts));
    }

    public function testReadTimeoutOnABufferedBodyIsIgnoredAsByGuzzlesCurlHandler(): void
    {
        $answer = Answer::status(200, [], str_repeat('a', 10) . str_repeat('b', 10))->stallBody(10, 800);

        self::assertParity(self::parity()->request('GET', '/stall', ['read_timeout' => 0.3], $answer), ['seen.class']);
    }

    public function testReadTimeoutOnAStreamedBodyFailsTheReadInsteadOfTruncating(): void
    {
        $result = self::parity()->scenario(static function (GuzzleClient $client, EchoOrigin $origin): array {
            $body = $client->get($origin->url('/stall-stream'), ['stream' => true, 'read_timeout' => 0.3])->getBody();
            try {
                return ['body' => $body->getContents()];
            } catch (\RuntimeException $e) {
                return ['failed' => $e->getMessage()];
            }
        }, ['/stall-stream' => Answer::status(200, [], str_repeat('a', 10) . str_repeat('b', 10))->stallBody(10, 2500)]);

        // A documented difference: Guzzle's StreamHandler ends the body at the stall as if it
        // were complete; the pool fails the read, naming the option.
        self::assertSame(['body' => str_repeat('a', 10)], $result->guzzle->seen->facts);
        self::assertStringContainsString('"read_timeout" option', self::text($result->warm->seen->facts['failed'] ?? null));
    }

    public function testOnStatsOfASuccessHasTheSameKeysAndFacts(): void
    {
        $result = self::parity()->scenario(static function (GuzzleClient $client, EchoOrigin $origin): array {
            $stats = [];
            $client->post($origin->url('/stats?x=1'), ['body' => 'abc', 'on_stats' => static function (TransferStats $s) use (&$stats): void {
                $stats = self::statsFacts($s);
            }]);

            return $stats;
        }, ['/stats' => Answer::status(201, ['Content-Type: text/plain'], 'made', 'Created')]);

        self::assertParity($result);
    }

    public function testAProxyStringSendsThroughThatProxy(): void
    {
        // The echo origin is the proxy: what reaches it is the absolute-form request line. The
        // target is a closed loopback port, so a request that ignored the proxy stays on loopback.
        $result = self::parity()->scenario(static function (GuzzleClient $client, EchoOrigin $origin): \Psr\Http\Message\ResponseInterface {
            return $client->get(self::TARGET . '/through', ['proxy' => $origin->url('/')]);
        }, ['/through' => Answer::status(200, [], 'via proxy')]);

        self::assertParity($result, ['seen.class']);
        self::assertSame('GET ' . self::TARGET . '/through HTTP/1.1', $result->warm->received[0]->line ?? null);
    }

    public function testAPerSchemeProxyAndItsNoList(): void
    {
        $result = self::parity()->scenario(static function (GuzzleClient $client, EchoOrigin $origin): array {
            $closed = 'http://127.0.0.1:' . FreePort::pick();
            $viaProxy = ['http' => $origin->url('/'), 'https' => $closed, 'no' => ['localhost']];
            $direct = ['http' => $closed, 'no' => ['127.0.0.1']];

            return [
                'via' => (string) $client->get(self::TARGET . '/scheme', ['proxy' => $viaProxy])->getBody(),
                'direct' => (string) $client->get($origin->url('/direct'), ['proxy' => $direct])->getBody(),
                'none' => (string) $client->get($origin->url('/direct'), ['proxy' => ['http' => $closed, 'no' => ['*']]])->getBody(),
            ];
        }, ['/scheme' => Answer::status(200, [], 'via proxy'), '/direct' => Answer::status(200, [], 'direct')]);

        self::assertParity($result);
        self::assertSame(['GET ' . self::TARGET . '/scheme HTTP/1.1', 'GET /direct HTTP/1.1', 'GET /direct HTTP/1.1'], array_map(static fn($r): string => $r->line, $result->warm->received));
    }

    /** @return iterable<string, array{array<string, mixed>, string}> */
    public static function refusedOptions(): iterable
    {
        yield 'on_trailers' => [['on_trailers' => static function (): void {}], 'on_trailers'];
        yield 'a key from an engine' => [['ssl_key' => __FILE__, 'ssl_key_type' => 'ENG'], 'ssl_key_type'];
        yield 'curl URL' => [['curl' => [\CURLOPT_URL => 'http://127.0.0.1:9/']], 'curl'];
        yield 'curl FORBID_REUSE' => [['curl' => [\CURLOPT_FORBID_REUSE => true]], 'curl'];
        yield 'multiplex none' => [['multiplex' => 'none'], 'multiplex'];
        yield 'curl HTTPAUTH' => [['curl' => [\CURLOPT_HTTPAUTH => \CURLAUTH_NTLM]], 'curl'];
    }

    /** @param array<string, mixed> $options */
    #[DataProvider('refusedOptions')]
    public function testWhatThePoolCannotHonourIsRefusedLoudlyAndNothingIsSent(array $options, string $name): void
    {
        $origin = self::parity()->origin;
        $mark = $origin->mark();
        $client = new GuzzleClient(['handler' => \GuzzleHttp\HandlerStack::create(new \WarmHttp\Bridge\Guzzle\Handler())]);
        $url = isset($options['base_uri']) ? 'http://localhost:' . $origin->port() . '/refused' : $origin->url('/refused');
        unset($options['base_uri']);
        try {
            $client->get($url, $options);
            self::fail("\"{$name}\" cannot be honoured on the shared pool");
        } catch (\GuzzleHttp\Exception\RequestException $e) {
            self::assertStringContainsString("\"{$name}\" is not supported by WarmHttp\\Bridge\\Guzzle\\Handler", $e->getMessage());
        }
        self::assertSame([], $origin->received($mark));
    }

    /**
     * @param array<string, mixed> $options
     *
     * @return \Closure(): array<string, mixed>
     */
    private static function withStats(array $options): \Closure
    {
        return static fn(): array => $options + ['on_stats' => static function (TransferStats $s): void {
            throw new \LogicException('on_stats must not run for ' . json_encode(self::statsFacts($s)));
        }];
    }

    /** @return array<string, mixed> */
    private static function statsFacts(TransferStats $stats): array
    {
        $keys = array_diff(array_keys($stats->getHandlerStats()), ['warmhttp', 'num_connects']); // WarmHttp's additions, documented
        sort($keys);
        $data = $stats->getHandlerErrorData();
        $info = $stats->getHandlerStats();

        return [
            'error_data' => \is_object($data) ? $data::class : $data,
            'has_response' => $stats->hasResponse(),
            'keys' => $keys,
            'url' => $info['url'] ?? null,
            'http_code' => $info['http_code'] ?? null,
            'content_type' => $info['content_type'] ?? null,
            'effective_method' => $info['effective_method'] ?? null,
            'scheme' => $info['scheme'] ?? null,
            'primary_ip' => $info['primary_ip'] ?? null,
        ];
    }

    /** @param array<string, mixed> $facts */
    private static function errno(array $facts): mixed
    {
        return \is_array($facts['context'] ?? null) ? $facts['context']['errno'] ?? null : null;
    }

    private static function text(mixed $value): string
    {
        return \is_string($value) ? $value : '';
    }

    /**
     * A GET expected to fail: the exception, its message, handler context and on_stats.
     *
     * @param array<string, mixed> $options
     *
     * @return array<string, mixed>
     */
    private static function failure(GuzzleClient $client, string $url, array $options = []): array
    {
        $stats = [];
        try {
            $client->get($url, $options + ['on_stats' => static function (TransferStats $s) use (&$stats): void {
                $stats = self::statsFacts($s);
            }]);
        } catch (\Throwable $e) {
            // Elapsed times forgiven as everywhere in the suite (Normalise): curl's "after 0 ms" read 4 ms once in CI.
            return ['exception' => $e::class, 'message' => Normalise::text($e->getMessage(), 0), 'context' => self::contextFacts($e), 'stats' => $stats];
        }

        return ['exception' => null];
    }

    /** @return array<string, mixed> */
    private static function contextFacts(\Throwable $e): array
    {
        if (!$e instanceof \GuzzleHttp\Exception\RequestException && !$e instanceof \GuzzleHttp\Exception\ConnectException) {
            return [];
        }
        $context = $e->getHandlerContext();
        $keys = array_keys($context);
        sort($keys);

        return ['keys' => $keys, 'errno' => $context['errno'] ?? null, 'error' => \is_string($context['error'] ?? null) ? Normalise::text($context['error'], 0) : null, 'url' => $context['url'] ?? null, 'http_code' => $context['http_code'] ?? null];
    }
}
