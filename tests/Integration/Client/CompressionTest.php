<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Client;

use PHPUnit\Framework\Attributes\DataProvider;
use WarmHttp\Exception\ResponseTooLargeException;
use WarmHttp\Tests\Integration\RigTestCase;

/**
 * decode_content: what goes out (Accept-Encoding), what comes back (decoded body, headers as
 * sent), the request's own Accept-Encoding left alone, and max_response_bytes on decoded bytes.
 */
final class CompressionTest extends RigTestCase
{
    /** @return iterable<string, array{string, bool}> */
    public static function listenersAndSinks(): iterable
    {
        foreach (['h2', 'h1tls', 'plain'] as $listener) {
            yield $listener . ' buffered' => [$listener, false];
            yield $listener . ' streamed' => [$listener, true];
        }
    }

    #[DataProvider('listenersAndSinks')]
    public function testAGzippedAnswerIsDecodedAndItsHeadersStayAsSent(string $listener, bool $stream): void
    {
        $nginx = self::rig()->nginx();
        $plain = (string) file_get_contents($nginx->dir() . '/json/large.json');
        $gzipped = (string) filesize($nginx->dir() . '/json/large.json.gz');

        $response = self::client(['stream' => $stream])->sendRequest(self::client()->createRequest('GET', self::nginxUrl($listener, '/json/large.json')));

        self::assertSame(200, $response->getStatusCode());
        self::assertSame($plain, (string) $response->getBody());
        self::assertSame('gzip', $response->getHeaderLine('Content-Encoding'), 'the headers are the ones that came (as Symfony and Guzzle\'s curl handler keep them)');
        self::assertSame($gzipped, $response->getHeaderLine('Content-Length'));
        self::assertSame('gzip', self::lastLogged('/json/')['accept_encoding']);
    }

    public function testTheCodingsOfferedCanBeChosenOrTurnedOff(): void
    {
        $url = self::nginxUrl('h2', '/json/large.json');
        $plain = (string) file_get_contents(self::rig()->nginx()->dir() . '/json/large.json');

        $offered = self::client(['decode_content' => 'gzip, zstd'])->sendRequest(self::client()->createRequest('GET', $url));
        self::assertSame('gzip, zstd', self::lastLogged('/json/')['accept_encoding']);
        self::assertSame($plain, (string) $offered->getBody());

        $off = self::client(['decode_content' => false])->sendRequest(self::client()->createRequest('GET', $url));
        self::assertSame('', self::lastLogged('/json/')['accept_encoding'], 'no Accept-Encoding at all');
        self::assertSame($plain, (string) $off->getBody());
        self::assertFalse($off->hasHeader('Content-Encoding'));
    }

    public function testAZstdAnswerIsDecoded(): void
    {
        $nginx = self::rig()->nginx();
        $plain = (string) file_get_contents($nginx->dir() . '/json/large.json');
        $zstd = $nginx->encodedPath('large.json.zst');
        exec(\sprintf('zstd -q -f -o %s %s 2>&1', escapeshellarg($zstd), escapeshellarg($nginx->dir() . '/json/large.json')), $output, $status);
        if ($status !== 0) {
            self::markTestSkipped('the zstd CLI is needed to make the answer: apt-get install zstd');
        }

        $response = self::client(['decode_content' => 'zstd'])->sendRequest(self::client()->createRequest('GET', self::nginxUrl('h2', '/zstd/large.json.zst')));

        self::assertSame($plain, (string) $response->getBody());
        self::assertSame('zstd', $response->getHeaderLine('Content-Encoding'));
    }

    /** deflate as RFC 9110 means it (zlib) and as some servers send it (raw), and brotli. */
    public function testDeflateEitherWayAndBrotliAreDecoded(): void
    {
        $nginx = self::rig()->nginx();
        $plain = (string) file_get_contents($nginx->dir() . '/json/large.json');
        $nginx->putEncoded('large.zlib', (string) gzcompress($plain));
        $nginx->putEncoded('large.raw', (string) gzdeflate($plain));
        $client = self::client(['decode_content' => 'deflate, br']);

        foreach (['/deflate/large.zlib', '/deflate/large.raw'] as $path) {
            self::assertSame($plain, (string) $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', $path)))->getBody(), $path);
        }
        self::assertSame('deflate, br', self::lastLogged('/deflate/')['accept_encoding']);

        $brotli = self::brotli($plain);
        if ($brotli === null) {
            self::markTestIncomplete('deflate checked; brotli needs PHP\'s FFI and libbrotlienc.so.1 to make the answer');
        }
        $nginx->putEncoded('large.br', $brotli);
        self::assertSame($plain, (string) $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', '/br/large.br')))->getBody());
    }

    /** As Symfony HttpClient and Go's net/http: a request that names its codings gets the bytes that came. */
    public function testARequestWithItsOwnAcceptEncodingGetsTheRawBytes(): void
    {
        $nginx = self::rig()->nginx();
        $client = self::client();

        $response = $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', '/json/large.json'))->withHeader('Accept-Encoding', 'gzip'));

        self::assertSame((string) file_get_contents($nginx->dir() . '/json/large.json.gz'), (string) $response->getBody());
        self::assertSame('gzip', $response->getHeaderLine('Content-Encoding'));
        self::assertSame('gzip', self::lastLogged('/json/')['accept_encoding']);

        $identity = $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', '/json/large.json'))->withHeader('Accept-Encoding', 'identity'));
        self::assertSame('identity', self::lastLogged('/json/')['accept_encoding']);
        self::assertFalse($identity->hasHeader('Content-Encoding'));
    }

    /**
     * 1 GiB of zeros in a 1 MiB gzip: libcurl decodes as the bytes come and hands the write
     * callbacks decoded bytes, so max_response_bytes stops it early and memory stays bounded.
     */
    #[DataProvider('sinks')]
    public function testAGzipBombIsCutOffByMaxResponseBytesOnTheDecodedSize(bool $stream): void
    {
        $nginx = self::rig()->nginx();
        if (!is_file($nginx->encodedPath('bomb.gz'))) {
            $nginx->putEncoded('bomb.gz', self::bomb());
        }
        $limit = 16 * 1048576;
        $client = self::client(['max_response_bytes' => $limit, 'stream' => $stream]);
        $before = memory_get_usage();
        memory_reset_peak_usage();

        try {
            $response = $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', '/gzip/bomb.gz')));
            $body = $response->getBody();
            // read() until it gives nothing, not while !eof(): PullStream::eof() is true once
            // a failed transfer's last bytes were taken, and the failure would go unseen.
            while ($body->read(65536) !== '') {
                continue;
            }
            self::fail('a 1 GiB decoded body must not pass a 16 MiB max_response_bytes');
        } catch (ResponseTooLargeException $e) {
            self::assertFalse($stream, 'a buffered response fails in sendRequest()');
            self::assertStringContainsString('max_response_bytes', $e->getMessage());
        } catch (\RuntimeException $e) {
            self::assertTrue($stream, 'a streamed body fails where it is read (PSR-7 streams throw RuntimeException)');
            self::assertInstanceOf(ResponseTooLargeException::class, $e->getPrevious(), $e::class . ": " . $e->getMessage());
        }

        self::assertLessThan(64 * 1048576, memory_get_peak_usage() - $before, 'memory stays bounded by the limit, not the decoded size');
        $entry = self::lastLogged('/gzip/');
        self::assertLessThanOrEqual(filesize($nginx->encodedPath('bomb.gz')), (int) $entry['bytes'], 'nginx sent at most the compressed file');
        self::assertLessThan(1100000, filesize($nginx->encodedPath('bomb.gz')));
    }

    /** @return iterable<string, array{bool}> */
    public static function sinks(): iterable
    {
        yield 'buffered' => [false];
        yield 'streamed' => [true];
    }

    public function testWithoutALimitADecodedBodyIsCountedInFull(): void
    {
        $nginx = self::rig()->nginx();
        $nginx->putEncoded('twenty.gz', (string) gzencode(str_repeat("\0", 20 * 1048576), 9));

        $response = self::client(['max_response_bytes' => 21 * 1048576])->sendRequest(self::client()->createRequest('GET', self::nginxUrl('plain', '/gzip/twenty.gz')));

        self::assertSame(20 * 1048576, $response->getBody()->getSize());
    }

    /** Brotli through libbrotlienc (the library libcurl decodes with is there; no PHP extension is). */
    private static function brotli(string $plain): ?string
    {
        if (!\extension_loaded('ffi')) {
            return null;
        }
        try {
            $brotli = \FFI::cdef('int BrotliEncoderCompress(int quality, int lgwin, int mode, size_t input_size, const uint8_t* input_buffer, size_t* encoded_size, uint8_t* encoded_buffer);', 'libbrotlienc.so.1');
        } catch (\FFI\Exception) {
            return null;
        }
        $length = \strlen($plain);
        $input = $brotli->new("uint8_t[{$length}]");
        $output = $brotli->new('uint8_t[' . ($length + 1024) . ']');
        $size = $brotli->new('size_t');
        if ($input === null || $output === null || $size === null) {
            return null;
        }
        \FFI::memcpy($input, $plain, $length);
        $size->cdata = $length + 1024; // @phpstan-ignore property.notFound
        // @phpstan-ignore method.notFound
        $ok = $brotli->BrotliEncoderCompress(5, 22, 0, $length, $input, \FFI::addr($size), $output);

        return $ok === 1 ? \FFI::string($output, $size->cdata) : null;
    }

    /** 1 GiB of zeros, 1 MiB in gzip (level 9, 4 s), compressed in 1 MiB steps. */
    private static function bomb(): string
    {
        $deflate = deflate_init(\ZLIB_ENCODING_GZIP, ['level' => 9]);
        self::assertNotFalse($deflate);
        $zeros = str_repeat("\0", 1048576);
        $out = '';
        for ($i = 0; $i < 1024; ++$i) {
            $out .= deflate_add($deflate, $zeros, \ZLIB_NO_FLUSH);
        }

        return $out . deflate_add($deflate, '', \ZLIB_FINISH);
    }

    /** @return array<string, string> the last access-log line for a path */
    private static function lastLogged(string $prefix): array
    {
        $nginx = self::rig()->nginx();
        $nginx->awaitRequests(1, $prefix);
        usleep(20_000);
        $lines = file($nginx->dir() . '/access.log', \FILE_IGNORE_NEW_LINES) ?: [];
        for ($i = \count($lines) - 1; $i >= 0; --$i) {
            $entry = json_decode($lines[$i], true);
            if (\is_array($entry) && \is_string($entry['uri'] ?? null) && str_starts_with($entry['uri'], $prefix)) {
                /** @var array<string, string> $entry */
                return $entry;
            }
        }
        self::fail('no request for ' . $prefix . ' in the access log');
    }
}
