<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Internal;

use Nyholm\Psr7\Request;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use Psr\Http\Message\RequestInterface;
use WarmHttp\Internal\CurlOptions;
use WarmHttp\Internal\MemoryStream;
use WarmHttp\Internal\Options;
use WarmHttp\Internal\ReadTimeout;
use WarmHttp\Internal\UserAgent;

/** The request part of the option mapping: headers, version and method as curl is given them. */
final class CurlOptionsTest extends TestCase
{
    public function testABodylessGetSuppressesCurlsAcceptAndCarriesTheDefaultUserAgent(): void
    {
        self::assertSame(['Host: example.com', 'Accept:', UserAgent::HEADER_LINE], self::headers(new Request('GET', 'http://example.com/')));
    }

    public function testOnlyABodyGoesWithoutCurlsExpect(): void
    {
        self::assertContains('Expect:', self::headers(new Request('POST', 'http://example.com/', [], str_repeat('a', 2048))));
        self::assertContains('Expect:', self::headers(new Request('PUT', 'http://example.com/')), 'an empty PUT goes as CURLOPT_POSTFIELDS too');
        self::assertNotContains('Expect:', self::headers(new Request('DELETE', 'http://example.com/')));
    }

    public function testABodySuppressesCurlsFormContentTypeOnlyWhenTheRequestHasNone(): void
    {
        $post = new Request('POST', 'http://example.com/', [], 'a=1');

        self::assertContains('Content-Type:', self::headers($post));
        self::assertNotContains('Content-Type:', self::headers($post->withHeader('Content-Type', 'application/json')));
        self::assertContains('Content-Type: application/json', self::headers($post->withHeader('Content-Type', 'application/json')));
        self::assertContains('Content-Type:', self::headers(new Request('POST', 'http://example.com/')), 'an empty POST goes as CURLOPT_POSTFIELDS too');
    }

    public function testTheRequestsOwnAcceptAndUserAgentReplaceTheDefaults(): void
    {
        $headers = self::headers(new Request('GET', 'http://example.com/', ['accept' => 'text/html', 'USER-AGENT' => 'Mine/1']));

        self::assertSame(['Host: example.com', 'accept: text/html', 'USER-AGENT: Mine/1'], $headers);
    }

    public function testAnEmptyValueIsSentAsAnEmptyHeaderNotARemoval(): void
    {
        self::assertContains('X-Empty;', self::headers(new Request('GET', 'http://example.com/', ['X-Empty' => ''])));
        self::assertContains('Accept;', self::headers(new Request('GET', 'http://example.com/', ['Accept' => ''])));
        self::assertNotContains('Accept:', self::headers(new Request('GET', 'http://example.com/', ['Accept' => ''])));
    }

    /** @return iterable<string, array{RequestInterface, list<string>}> */
    public static function framing(): iterable
    {
        yield 'a body: curl writes the length' => [new Request('PUT', 'http://e.com/', ['Content-Length' => '99'], 'abc'), []];
        yield 'a body: chunked as asked' => [new Request('PUT', 'http://e.com/', ['Transfer-Encoding' => 'chunked'], 'abc'), ['Transfer-Encoding: chunked']];
        yield 'no body: Content-Length 0 kept' => [new Request('GET', 'http://e.com/', ['Content-Length' => '0']), ['Content-Length: 0']];
        yield 'no body: a false length dropped' => [new Request('GET', 'http://e.com/', ['Content-Length' => '5']), []];
        yield 'no body: Transfer-Encoding dropped' => [new Request('GET', 'http://e.com/', ['Transfer-Encoding' => 'chunked']), []];
        yield 'bodiless POST: its Content-Length 0 kept in place' => [new Request('POST', 'http://e.com/', ['Content-Length' => '0']), ['Content-Length: 0']];
        yield 'bodiless PUT: its Content-Length 0 kept in place' => [new Request('PUT', 'http://e.com/', ['Content-Length' => '0']), ['Content-Length: 0']];
    }

    /** Guzzle's curl and libcurl: an empty POST or PUT says Content-Length: 0, a bodiless PATCH says nothing. */
    public function testOnlyABodilessPostOrPutAnnouncesItsEmptyBody(): void
    {
        foreach (['POST' => true, 'PUT' => true, 'PATCH' => false, 'DELETE' => false, 'GET' => false] as $method => $announced) {
            $curl = CurlOptions::forRequest(new Request($method, 'http://e.com/'), [], null, true);
            self::assertSame($announced, ($curl[\CURLOPT_POSTFIELDS] ?? null) === '', $method);
        }
    }

    /** @param list<string> $kept */
    #[DataProvider('framing')]
    public function testFramingHeadersGoOnlyWhereTheyDescribeWhatIsSent(RequestInterface $request, array $kept): void
    {
        $framing = array_values(array_filter(self::headers($request), static fn(string $line): bool => stripos($line, 'content-length') === 0 || stripos($line, 'transfer-encoding') === 0));

        self::assertSame($kept, $framing);
    }

    /** @return iterable<string, array{?string, string, string, int}> option, request version, scheme, CURLOPT_HTTP_VERSION */
    public static function versions(): iterable
    {
        yield 'https, 1.1 (PSR-7 default): h2 over ALPN' => [null, '1.1', 'https', \CURL_HTTP_VERSION_2TLS];
        yield 'http, 1.1' => [null, '1.1', 'http', \CURL_HTTP_VERSION_1_1];
        yield 'https, 1.0' => [null, '1.0', 'https', \CURL_HTTP_VERSION_1_0];
        yield 'http, 1.0' => [null, '1.0', 'http', \CURL_HTTP_VERSION_1_0];
        yield 'https, 2.0' => [null, '2.0', 'https', \CURL_HTTP_VERSION_2TLS];
        yield 'https, 2' => [null, '2', 'https', \CURL_HTTP_VERSION_2TLS];
        yield 'http, 2: h2c prior knowledge' => [null, '2', 'http', \CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE];
        yield 'http, 3: the default' => [null, '3', 'http', \CURL_HTTP_VERSION_1_1];
        yield 'option 1.1 wins over 2 on https' => ['1.1', '2', 'https', \CURL_HTTP_VERSION_1_1];
        yield 'option 1.1 wins over 1.0' => ['1.1', '1.0', 'http', \CURL_HTTP_VERSION_1_1];
        yield 'option 2 wins over 1.0 on http' => ['2', '1.0', 'http', \CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE];
        yield 'option 2-upgrade on http: Upgrade: h2c offered' => ['2-upgrade', '1.1', 'http', \CURL_HTTP_VERSION_2_0];
        yield 'option 2-upgrade on https: ALPN' => ['2-upgrade', '1.1', 'https', \CURL_HTTP_VERSION_2TLS];
    }

    #[DataProvider('versions')]
    public function testTheOptionWinsThenTheRequestsVersion(?string $option, string $version, string $scheme, int $curlVersion): void
    {
        $curl = CurlOptions::forRequest((new Request('GET', $scheme . '://example.com/'))->withProtocolVersion($version), [], $option, true);

        self::assertSame($curlVersion, $curl[\CURLOPT_HTTP_VERSION]);
    }

    public function testTheRelaysVersionIsTheDefault(): void
    {
        self::assertSame([\CURLOPT_HTTP_VERSION => \CURL_HTTP_VERSION_2TLS, \CURLOPT_PIPEWAIT => true], CurlOptions::version(null, true));
        self::assertSame([\CURLOPT_HTTP_VERSION => \CURL_HTTP_VERSION_1_1], CurlOptions::version(null, false));
    }

    /** A HEAD with a body cannot use NOBODY: libcurl 7.88 would drop the body. */
    public function testAHeadWithABodyIsACustomHeadCarryingIt(): void
    {
        $curl = CurlOptions::forRequest(new Request('HEAD', 'http://example.com/', [], new MemoryStream('abc')), [], null, true);

        self::assertSame('HEAD', $curl[\CURLOPT_CUSTOMREQUEST]);
        self::assertArrayNotHasKey(\CURLOPT_NOBODY, $curl);
        self::assertSame('abc', $curl[\CURLOPT_POSTFIELDS]);
        self::assertSame([\CURLOPT_NOBODY => true], CurlOptions::methodOf('HEAD', false));
    }

    /** @return list<string> */
    private static function headers(RequestInterface $request): array
    {
        $curl = CurlOptions::forRequest($request, [], null, true);
        \assert(\is_array($curl[\CURLOPT_HTTPHEADER]));

        /** @var list<string> */
        return $curl[\CURLOPT_HTTPHEADER];
    }

    public function testDecodingOffersGzipByDefaultAndStepsAsideForTheRequestsOwnAcceptEncoding(): void
    {
        $client = CurlOptions::forClient(Options::fromArray([]));
        self::assertSame('gzip', $client[\CURLOPT_ACCEPT_ENCODING]);

        $plain = CurlOptions::forRequest(new Request('GET', 'http://example.com/'), $client, null, true);
        self::assertSame('gzip', $plain[\CURLOPT_ACCEPT_ENCODING], 'libcurl sends it and decodes');

        $own = CurlOptions::forRequest(new Request('GET', 'http://example.com/', ['accept-encoding' => 'br']), $client, null, true);
        self::assertArrayNotHasKey(\CURLOPT_ACCEPT_ENCODING, $own, 'the raw bytes, as the request asked');
        self::assertIsArray($own[\CURLOPT_HTTPHEADER]);
        self::assertContains('accept-encoding: br', $own[\CURLOPT_HTTPHEADER]);

        self::assertArrayNotHasKey(\CURLOPT_ACCEPT_ENCODING, CurlOptions::forClient(Options::fromArray(['decode_content' => false])));
    }

    public function testClientCertificateKeyAndOnePassphrase(): void
    {
        $curl = CurlOptions::forClient(Options::fromArray(['cert' => [__FILE__, 'from-cert'], 'ssl_key' => __FILE__]));
        self::assertSame([__FILE__, __FILE__, 'from-cert'], [$curl[\CURLOPT_SSLCERT], $curl[\CURLOPT_SSLKEY], $curl[\CURLOPT_KEYPASSWD]]);

        $curl = CurlOptions::forClient(Options::fromArray(['cert' => __FILE__, 'ssl_key' => [__FILE__, 'from-key']]));
        self::assertSame('from-key', $curl[\CURLOPT_KEYPASSWD]);

        self::assertArrayNotHasKey(\CURLOPT_SSLCERT, CurlOptions::forClient(Options::fromArray([])));
    }

    /** @return iterable<string, array{array<string, mixed>, array<int, string>}> */
    public static function proxies(): iterable
    {
        yield 'environment without a proxy: said once, libcurl does not look per request' => [[], [\CURLOPT_PROXY => '', \CURLOPT_NOPROXY => '']];
        yield 'none at all' => [['proxy' => false, 'no_proxy' => ['a.example']], [\CURLOPT_PROXY => '']];
        yield 'explicit: the environment\'s no_proxy is not read' => [['proxy' => 'http://p:3128'], [\CURLOPT_PROXY => 'http://p:3128', \CURLOPT_NOPROXY => '']];
        yield 'explicit with exceptions' => [['proxy' => 'socks5h://p:1080', 'no_proxy' => ['localhost', '.internal']], [\CURLOPT_PROXY => 'socks5h://p:1080', \CURLOPT_NOPROXY => 'localhost,.internal']];
        yield 'environment proxy, own exceptions' => [['no_proxy' => ['localhost']], [\CURLOPT_NOPROXY => 'localhost']];
    }

    /**
     * @param array<string, mixed> $options
     * @param array<int, string>   $expected
     */
    #[DataProvider('proxies')]
    public function testProxyOptionsReplaceTheEnvironmentOnlyWhenSet(array $options, array $expected): void
    {
        $curl = CurlOptions::forClient(Options::fromArray($options));

        self::assertSame($expected, array_intersect_key($curl, [\CURLOPT_PROXY => 0, \CURLOPT_NOPROXY => 0]));
    }

    public function testAnHttpsProxyIsVerifiedWithTheClientsTlsOptions(): void
    {
        $curl = CurlOptions::forClient(Options::fromArray(['proxy' => 'HTTPS://proxy.internal:443', 'cafile' => __FILE__, 'verify' => true]));
        self::assertSame([true, 2, __FILE__], [$curl[\CURLOPT_PROXY_SSL_VERIFYPEER], $curl[\CURLOPT_PROXY_SSL_VERIFYHOST], $curl[\CURLOPT_PROXY_CAINFO]]);

        $off = CurlOptions::forClient(Options::fromArray(['proxy' => 'https://proxy.internal', 'verify' => false]));
        self::assertSame([false, 0], [$off[\CURLOPT_PROXY_SSL_VERIFYPEER], $off[\CURLOPT_PROXY_SSL_VERIFYHOST]]);
        self::assertArrayNotHasKey(\CURLOPT_PROXY_CAINFO, $off);

        self::assertArrayNotHasKey(\CURLOPT_PROXY_SSL_VERIFYPEER, CurlOptions::forClient(Options::fromArray(['proxy' => 'http://proxy.internal:3128', 'cafile' => __FILE__])));
    }

    public function testAReadTimeoutTurnsOnTheProgressWatchOnlyWhenSet(): void
    {
        $curl = CurlOptions::forClient(Options::fromArray(['read_timeout' => 1.5]));
        self::assertFalse($curl[\CURLOPT_NOPROGRESS]);
        self::assertInstanceOf(ReadTimeout::class, $curl[\CURLOPT_XFERINFOFUNCTION]);
        self::assertSame(1.5, $curl[\CURLOPT_XFERINFOFUNCTION]->seconds);

        self::assertArrayNotHasKey(\CURLOPT_XFERINFOFUNCTION, CurlOptions::forClient(Options::fromArray([])));
    }

    public function testTheConnectionChoicesMapToTheirCurlOptionsOnlyWhenSet(): void
    {
        $curl = CurlOptions::forClient(Options::fromArray(['tls_min' => '1.3', 'capath' => __DIR__, 'ip_resolve' => 'v6', 'cert' => __FILE__, 'cert_type' => 'DER', 'ssl_key' => __FILE__, 'ssl_key_type' => 'DER']));
        self::assertSame(\CURL_SSLVERSION_TLSv1_3 | \CURL_SSLVERSION_MAX_DEFAULT, $curl[\CURLOPT_SSLVERSION]);
        self::assertSame(__DIR__, $curl[\CURLOPT_CAPATH]);
        self::assertSame(\CURL_IPRESOLVE_V6, $curl[\CURLOPT_IPRESOLVE]);
        self::assertSame(['DER', 'DER'], [$curl[\CURLOPT_SSLCERTTYPE], $curl[\CURLOPT_SSLKEYTYPE]]);
        self::assertSame(\CURL_SSLVERSION_DEFAULT | \CURL_SSLVERSION_MAX_TLSv1_2, CurlOptions::forClient(Options::fromArray(['tls_max' => '1.2']))[\CURLOPT_SSLVERSION]);
        self::assertSame(\CURL_IPRESOLVE_V4, CurlOptions::forClient(Options::fromArray(['ip_resolve' => 'v4']))[\CURLOPT_IPRESOLVE]);
        self::assertSame(__DIR__, CurlOptions::forClient(Options::fromArray(['capath' => __DIR__, 'proxy' => 'https://proxy.internal:3128']))[\CURLOPT_PROXY_CAPATH]);

        $none = CurlOptions::forClient(Options::fromArray([]));
        foreach ([\CURLOPT_SSLVERSION, \CURLOPT_CAPATH, \CURLOPT_PROXY_CAPATH, \CURLOPT_IPRESOLVE, \CURLOPT_SSLCERTTYPE, \CURLOPT_SSLKEYTYPE, \CURLOPT_HTTPAUTH, \CURLOPT_VERBOSE, \CURLOPT_STDERR, \CURLOPT_XFERINFOFUNCTION] as $option) {
            self::assertArrayNotHasKey($option, $none);
        }
    }

    public function testDigestAnswersTheChallengeAndNtlmKeepsItsConnectionOnHttp11(): void
    {
        $digest = CurlOptions::forClient(Options::fromArray(['http_auth' => ['digest', 'me', 'pw']]));
        self::assertSame([\CURLAUTH_DIGEST, 'me', 'pw'], [$digest[\CURLOPT_HTTPAUTH], $digest[\CURLOPT_USERNAME], $digest[\CURLOPT_PASSWORD]]);
        self::assertArrayNotHasKey(\CURLOPT_HTTP_VERSION, $digest);

        $ntlm = CurlOptions::forClient(Options::fromArray(['http_auth' => ['ntlm', 'me', 'pw']]));
        self::assertSame(\CURLAUTH_NTLM, $ntlm[\CURLOPT_HTTPAUTH]);
        $request = CurlOptions::forRequest(new Request('GET', 'https://e.com/'), $ntlm, null, true);
        self::assertSame(\CURL_HTTP_VERSION_1_1, $request[\CURLOPT_HTTP_VERSION], 'the client\'s 1.1 wins over ALPN');
    }

    public function testProgressAndDebugTakeTheWatchedPath(): void
    {
        $calls = [];
        $curl = CurlOptions::forClient(Options::fromArray(['progress' => static function (int ...$numbers) use (&$calls): void {
            $calls[] = $numbers;
        }]));
        self::assertFalse($curl[\CURLOPT_NOPROGRESS]);
        self::assertInstanceOf(ReadTimeout::class, $curl[\CURLOPT_XFERINFOFUNCTION]);
        self::assertSame(0.0, $curl[\CURLOPT_XFERINFOFUNCTION]->seconds);

        $debug = CurlOptions::forClient(Options::fromArray(['debug' => \STDERR]));
        self::assertSame([true, \STDERR, false], [$debug[\CURLOPT_VERBOSE], $debug[\CURLOPT_STDERR], $debug[\CURLOPT_NOPROGRESS]]);
        self::assertInstanceOf(ReadTimeout::class, $debug[\CURLOPT_XFERINFOFUNCTION]);
    }
}
