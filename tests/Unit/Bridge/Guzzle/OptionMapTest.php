<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Bridge\Guzzle;

use GuzzleHttp\Psr7\Request;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Bridge\Guzzle\OptionMap;
use WarmHttp\Exception\RequestException;

/**
 * Guzzle request options → Client options, and the options the pool cannot honour refused by
 * name with the Client option that would make them possible.
 */
final class OptionMapTest extends TestCase
{
    private static string $pem = '';

    public static function setUpBeforeClass(): void
    {
        self::$pem = (string) tempnam(sys_get_temp_dir(), 'warmhttp-pem');
    }

    public static function tearDownAfterClass(): void
    {
        @unlink(self::$pem);
    }

    public function testWhatLaravelSendsOnEveryRequestMapsToTimeoutsOnly(): void
    {
        $laravel = ['connect_timeout' => 10, 'crypto_method' => \STREAM_CRYPTO_METHOD_TLSv1_2_CLIENT, 'http_errors' => false, 'timeout' => 30];

        self::assertSame(['timeout' => 30.0, 'connect_timeout' => 10.0], self::mapped($laravel));
    }

    public function testReadTimeoutIsTheClientsReadTimeoutForAStreamedBody(): void
    {
        self::assertSame(['read_timeout' => 2.5, 'stream' => true], self::mapped(['read_timeout' => 2.5, 'stream' => true]));
        self::assertSame([], self::mapped(['read_timeout' => 2.5]), 'Guzzle\'s CurlHandler ignores it; only its StreamHandler (stream => true) reads it');
    }

    public function testVersion2IsHttp2OverTlsAndHttp11OnPlainHttp(): void
    {
        self::assertSame(['http_version' => '2'], OptionMap::toWarmHttp(new Request('GET', 'https://example.com/', [], null, '2.0'), []));
        // Guzzle's curl offers Upgrade: h2c and stays on 1.1 with a server that ignores it;
        // the Client's "2" there is prior knowledge, which an HTTP/1.1 server cannot answer.
        self::assertSame(['http_version' => '2-upgrade'], OptionMap::toWarmHttp(new Request('GET', 'http://example.com/', [], null, '2.0'), []));
        self::assertSame([], OptionMap::toWarmHttp(new Request('GET', 'http://example.com/', [], null, '1.0'), []), 'the request\'s own 1.0 reaches the Client');
    }

    public function testCertificatesAndKeysWithAndWithoutPassphrase(): void
    {
        self::assertSame(['cert' => self::$pem], self::mapped(['cert' => self::$pem]));
        self::assertSame(['cert' => self::$pem], self::mapped(['cert' => [self::$pem]]));
        self::assertSame(['cert' => [self::$pem, 'secret']], self::mapped(['cert' => [self::$pem, 'secret']]));
        self::assertSame(['ssl_key' => [self::$pem, 'k']], self::mapped(['ssl_key' => [self::$pem, 'k']]));
        self::assertSame(['verify' => false, 'cert' => self::$pem], self::mapped(['verify' => false, 'cert' => self::$pem]));
    }

    public function testAVerifyThatIsNeitherFalseNorAPathMeansVerify(): void
    {
        self::assertSame([], self::mapped(['verify' => 10]), 'Guzzle\'s CurlHandler reads it as true');
        self::assertSame(['verify' => true, 'cafile' => self::$pem], self::mapped(['verify' => self::$pem]));
    }

    public function testTlsBoundsThatChangeNothingAreAccepted(): void
    {
        self::assertSame([], self::mapped(['crypto_method' => \STREAM_CRYPTO_METHOD_TLSv1_2_CLIENT, 'crypto_method_max' => \STREAM_CRYPTO_METHOD_TLSv1_3_CLIENT]));
    }

    public function testTheOptionsOfIssue14BecomeClientOptions(): void
    {
        $progress = static function (): void {};
        $debug = fopen('php://temp', 'w+');
        self::assertSame(['ip_resolve' => 'v4'], self::mapped(['force_ip_resolve' => 'v4'], 'http://example.com/'));
        self::assertSame(['ip_resolve' => 'v6'], self::mapped(['force_ip_resolve' => 'v6']));
        self::assertSame([], self::mapped(['force_ip_resolve' => 'v5'], 'http://example.com/'), 'Guzzle ignores other values');
        self::assertSame(['http_auth' => ['digest', 'u', 'p']], self::mapped(['auth' => ['u', 'p', 'digest']]));
        self::assertSame(['http_auth' => ['ntlm', 'u', 'p']], self::mapped(['auth' => ['u', 'p', 'NTLM']]));
        self::assertSame(['progress' => $progress], self::mapped(['progress' => $progress]));
        self::assertSame(['debug' => $debug], self::mapped(['debug' => $debug]));
        self::assertSame(['debug' => \STDOUT], self::mapped(['debug' => true]), 'Guzzle writes to STDOUT');
        self::assertSame(['tls_min' => '1.3'], self::mapped(['crypto_method' => \STREAM_CRYPTO_METHOD_TLSv1_3_CLIENT]));
        self::assertSame(['tls_max' => '1.2'], self::mapped(['crypto_method_max' => \STREAM_CRYPTO_METHOD_TLSv1_2_CLIENT]));
        self::assertSame([], self::mapped(['crypto_method' => \STREAM_CRYPTO_METHOD_TLSv1_2_CLIENT, 'crypto_method_max' => \STREAM_CRYPTO_METHOD_TLSv1_3_CLIENT]), 'changes nothing');
        self::assertSame(['verify' => true, 'capath' => sys_get_temp_dir()], self::mapped(['verify' => sys_get_temp_dir()]));
        self::assertSame(['cert_type' => 'DER', 'ssl_key_type' => 'PEM'], self::mapped(['cert_type' => 'der', 'ssl_key_type' => 'pem']));
    }

    public function testACertificatesTypeComesFromItsExtensionAsInGuzzle(): void
    {
        $p12 = sys_get_temp_dir() . '/warmhttp-optionmap-' . getmypid() . '.p12';
        touch($p12);
        try {
            self::assertSame(['cert' => $p12, 'cert_type' => 'P12'], self::mapped(['cert' => $p12]));
            self::assertSame(['cert' => $p12, 'cert_type' => 'PEM'], self::mapped(['cert' => $p12, 'cert_type' => 'PEM']), 'cert_type wins');
        } finally {
            unlink($p12);
        }
    }

    public function testFalsyDebugAndAuthBasicAreNotRefused(): void
    {
        self::assertSame([], self::mapped(['debug' => false, 'auth' => ['u', 'p'], 'progress' => null, 'multiplex' => 'wait']));
    }

    /** @return iterable<string, array{array<string, mixed>, string, string}> */
    public static function refused(): iterable
    {
        yield 'on_trailers' => [['on_trailers' => static function (): void {}], 'on_trailers', 'trailers'];
        yield 'multiplex none' => [['multiplex' => 'none'], 'multiplex', 'cannot opt one request out'];
        yield 'an engine key' => [['ssl_key_type' => 'eng'], 'ssl_key_type', 'the Client reads PEM, DER files only, not "ENG"'];
        yield 'a provider certificate' => [['cert_type' => 'PROV'], 'cert_type', 'the Client reads PEM, DER, P12 files only'];
    }

    /** @param array<string, mixed> $options */
    #[DataProvider('refused')]
    public function testRefusedByNameWithWhatWouldMakeItPossible(array $options, string $name, string $needs): void
    {
        try {
            self::mapped($options, 'https://example.com/');
            self::fail("\"{$name}\" cannot be honoured on the shared pool yet");
        } catch (RequestException $e) {
            self::assertStringContainsString("\"{$name}\" is not supported by WarmHttp\\Bridge\\Guzzle\\Handler", $e->getMessage());
            self::assertStringContainsString($needs, $e->getMessage());
        }
    }

    /**
     * @param array<string, mixed> $options
     *
     * @return array<string, mixed>
     */
    private static function mapped(array $options, string $uri = 'https://example.com/'): array
    {
        return OptionMap::toWarmHttp(new Request('GET', $uri), $options);
    }
}
