<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Bridge\Guzzle;

use GuzzleHttp\Exception\ConnectException;
use GuzzleHttp\Exception\RequestException as GuzzleRequestException;
use GuzzleHttp\Psr7\Request;
use GuzzleHttp\Psr7\Response;
use GuzzleHttp\TransferStats;
use PHPUnit\Framework\TestCase;
use WarmHttp\Bridge\Guzzle\StatsReport;

/** `on_stats` as Guzzle's CurlHandler calls it: curl_getinfo()'s keys, the errno as error data. */
final class StatsReportTest extends TestCase
{
    public function testASuccessCarriesEveryCurlInfoKeyAndErrnoZero(): void
    {
        $request = new Request('POST', 'https://example.com/x#frag', [], 'abc');
        $seen = self::report(static fn(array $options) => StatsReport::success($request, new Response(201, ['Content-Type' => 'text/plain', 'Content-Length' => '2'], 'ok'), $options, microtime(true)));

        self::assertSame(0, $seen->getHandlerErrorData());
        $stats = $seen->getHandlerStats();
        self::assertSame([], array_diff(self::curlInfoKeys(), array_keys($stats)));
        self::assertSame('https://example.com/x', $stats['url']);
        self::assertSame(201, $stats['http_code']);
        self::assertSame('text/plain', $stats['content_type']);
        self::assertSame(2.0, $stats['download_content_length']);
        self::assertSame(3.0, $stats['upload_content_length']);
        self::assertSame('POST', $stats['effective_method']);
        self::assertSame('HTTPS', $stats['scheme']);
    }

    public function testTheCallerSeesItsGuzzleResponseAndCurlInfoTheBytesAsReceived(): void
    {
        $request = new Request('GET', 'http://127.0.0.1/gzip');
        $gzipped = (string) gzencode(str_repeat('a', 300));
        $received = new \WarmHttp\Response(new Response(200, ['Content-Encoding' => 'gzip', 'Content-Length' => (string) \strlen($gzipped)], $gzipped), ['total_time_us' => 250_000, 'primary_ip' => '127.0.0.1', 'primary_port' => 80]);
        $decoded = new Response(200, ['x-encoded-content-encoding' => 'gzip'], str_repeat('a', 300));
        $seen = self::report(static fn(array $options) => StatsReport::success($request, $decoded, $options, microtime(true), $received));

        self::assertSame($decoded, $seen->getResponse(), 'on_stats gets what the caller gets, as from Guzzle\'s CurlHandler');
        $stats = $seen->getHandlerStats();
        self::assertSame((float) \strlen($gzipped), $stats['download_content_length']);
        self::assertSame((float) \strlen($gzipped), $stats['size_download'], 'the encoded bytes, as curl counts them');
        self::assertSame(0.25, $seen->getTransferTime());
        self::assertSame('127.0.0.1', $stats['primary_ip']);
    }

    public function testAFailedTransferPassesItsErrno(): void
    {
        $request = new Request('GET', 'http://127.0.0.1:1/');
        $error = new ConnectException('cURL error 7: refused', $request, null, ['errno' => 7]);
        $seen = self::report(static fn(array $options) => StatsReport::failure($request, $options, microtime(true), $error));

        self::assertSame(7, $seen->getHandlerErrorData());
        self::assertNull($seen->getResponse());
        self::assertSame(0, $seen->getHandlerStats()['http_code']);
    }

    public function testAnAnswerRefusedByOnHeadersIsAWriteError(): void
    {
        $request = new Request('GET', 'http://127.0.0.1/');
        $error = new GuzzleRequestException('An error was encountered during the on_headers event', $request, new Response(200));
        $seen = self::report(static fn(array $options) => StatsReport::failure($request, $options, microtime(true), $error));

        self::assertSame(\CURLE_WRITE_ERROR, $seen->getHandlerErrorData(), 'as libcurl reports a header callback that fails');
        self::assertSame(200, $seen->getHandlerStats()['http_code']);
    }

    public function testARefusalBeforeSendingPassesTheException(): void
    {
        $request = new Request('GET', 'http://127.0.0.1/');
        $error = new GuzzleRequestException('refused', $request);
        $seen = self::report(static fn(array $options) => StatsReport::failure($request, $options, microtime(true), $error));

        self::assertSame($error, $seen->getHandlerErrorData());
    }

    /** @param \Closure(array<string, mixed>): void $run */
    private static function report(\Closure $run): TransferStats
    {
        $seen = [];
        $run(['on_stats' => static function (TransferStats $stats) use (&$seen): void {
            $seen[] = $stats;
        }]);
        self::assertCount(1, $seen);

        return $seen[0];
    }

    /** @return list<string> */
    private static function curlInfoKeys(): array
    {
        $handle = curl_init();
        $keys = array_keys(curl_getinfo($handle));
        curl_close($handle);

        return [...$keys, 'appconnect_time'];
    }
}
