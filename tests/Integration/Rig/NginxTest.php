<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Rig;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Rig\Nginx;
use WarmHttp\Rig\Rig;

final class NginxTest extends TestCase
{
    private static function nginx(): Nginx
    {
        return Rig::shared()->nginx();
    }

    /**
     * @return iterable<string, array{string, int}>
     */
    public static function listeners(): iterable
    {
        yield 'h2' => ['h2', \CURL_HTTP_VERSION_2_0];
        yield 'h1tls' => ['h1tls', \CURL_HTTP_VERSION_1_1];
        yield 'plain' => ['plain', \CURL_HTTP_VERSION_1_1];
    }

    #[DataProvider('listeners')]
    public function testListenerNegotiatesItsProtocol(string $listener, int $version): void
    {
        $response = CurlGet::fetch(self::nginx()->url($listener, '/fast'), [\CURLOPT_HTTP_VERSION => \CURL_HTTP_VERSION_2TLS]);

        self::assertSame(0, $response['errno'], $response['error']);
        self::assertSame('ok', $response['body']);
        self::assertSame($version, $response['version']);
    }

    public function testSlowWaitsInBothForms(): void
    {
        $query = CurlGet::fetch(self::nginx()->url('h2', '/slow?ms=120'));
        $path = CurlGet::fetch(self::nginx()->url('h1tls', '/slow/80'));

        self::assertSame(200, $query['status']);
        self::assertGreaterThanOrEqual(120, $query['time']);
        self::assertSame(200, $path['status']);
        self::assertGreaterThanOrEqual(80, $path['time']);
    }

    public function testBytesServesExactSizesAndTheSparseGigabyteHasItsLength(): void
    {
        $response = CurlGet::fetch(self::nginx()->url('h2', '/bytes/1m'));
        self::assertSame(1048576, \strlen($response['body']));

        $handle = curl_init();
        CurlGet::fetch(self::nginx()->url('h1tls', '/bytes/1g'), [\CURLOPT_NOBODY => true], $handle);
        self::assertSame(1073741824, curl_getinfo($handle, \CURLINFO_CONTENT_LENGTH_DOWNLOAD_T));
    }

    public function testEchoesPathBodyAndHeaders(): void
    {
        self::assertSame('/echo/a/b?c=d', CurlGet::fetch(self::nginx()->url('h2', '/echo/a/b?c=d'))['body']);
        $body = random_bytes(300_000);
        self::assertSame($body, CurlGet::fetch(self::nginx()->url('h2', '/echo-body'), [\CURLOPT_POSTFIELDS => $body])['body']);
        foreach (['h1tls', 'h2'] as $listener) {
            $headers = CurlGet::fetch(self::nginx()->url($listener, '/headers'), [\CURLOPT_HTTPHEADER => ['X-Foo: bar-' . $listener]])['body'];
            self::assertMatchesRegularExpression('/^x-foo: bar-' . $listener . '\r$/mi', $headers);
        }
    }

    public function testRedirectsAndStatuses(): void
    {
        $handle = curl_init();
        $response = CurlGet::fetch(self::nginx()->url('h2', '/redirect/3'), [\CURLOPT_FOLLOWLOCATION => true], $handle);
        self::assertSame('ok', $response['body']);
        self::assertSame(3, curl_getinfo($handle, \CURLINFO_REDIRECT_COUNT));

        $handle = curl_init();
        $response = CurlGet::fetch(self::nginx()->url('h1tls', '/redirect-to?url=file:///etc/passwd'), [], $handle);
        self::assertSame(302, $response['status']);
        self::assertSame('file:///etc/passwd', curl_getinfo($handle, \CURLINFO_REDIRECT_URL));

        self::assertSame(503, CurlGet::fetch(self::nginx()->url('plain', '/status/503'))['status']);
        self::assertSame(204, CurlGet::fetch(self::nginx()->url('h2', '/status/204'))['status']);
    }

    public function testIdleConnectionsAreClosedAfterTheKeepaliveTimeout(): void
    {
        $nginx = Nginx::start(Rig::shared()->certificate(), 0.2);
        $handle = curl_init();
        CurlGet::fetch($nginx->url('h1tls', '/fast'), [], $handle);
        usleep(400_000);
        $second = CurlGet::fetch($nginx->url('h1tls', '/fast'), [], $handle);

        self::assertSame('ok', $second['body']);
        self::assertSame(2, $nginx->awaitRequests(2));
        self::assertSame(2, $nginx->distinctConnections($nginx->h1TlsPort()));
        $nginx->stop();
    }

    public function testAccessLogCountsRequestsAndConnections(): void
    {
        $nginx = self::nginx();
        $prefix = '/echo/log-' . bin2hex(random_bytes(4));
        $handle = curl_init();
        for ($i = 0; $i < 5; ++$i) {
            CurlGet::fetch($nginx->url('h1tls', $prefix . '/' . $i), [], $handle);
        }
        CurlGet::fetch($nginx->url('plain', $prefix . '/fresh'));

        self::assertSame(6, $nginx->awaitRequests(6, $prefix));
        self::assertSame(1, $nginx->distinctConnections($nginx->h1TlsPort(), $prefix));
        self::assertSame(2, $nginx->distinctConnections(null, $prefix));
        $last = array_values(array_filter($nginx->accessLog(), static fn(array $e): bool => $e['uri'] === $prefix . '/4'))[0];
        self::assertSame(5, $last['requests']);
        self::assertSame('GET', $last['method']);
        self::assertSame(200, $last['status']);
    }
}
