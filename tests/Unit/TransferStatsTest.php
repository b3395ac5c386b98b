<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\TransferStats;

final class TransferStatsTest extends TestCase
{
    public function testSplitsCurlsCumulativeTimesIntoPhases(): void
    {
        $stats = TransferStats::fromCurlInfo([
            'namelookup_time_us' => 1000,
            'connect_time_us' => 3000,
            'appconnect_time_us' => 8000,
            'starttransfer_time_us' => 10000,
            'total_time_us' => 12500,
            'http_version' => \CURL_HTTP_VERSION_2_0,
            'num_connects' => 1,
            'primary_ip' => '203.0.113.7',
            'primary_port' => 443,
            'redirect_count' => 2,
        ]);

        self::assertEquals(new TransferStats(1.0, 2.0, 5.0, 10.0, 12.5, '2', false, '203.0.113.7:443', 2), $stats);
    }

    public function testAPlainHttpTransferHasNoTlsTime(): void
    {
        $stats = TransferStats::fromCurlInfo(['namelookup_time_us' => 500, 'connect_time_us' => 1500, 'appconnect_time_us' => 0, 'num_connects' => 1]);

        self::assertSame(0.0, $stats->tlsMs);
        self::assertSame(1.0, $stats->connectMs);
    }

    public function testAReusedConnectionShowsNoConnectTime(): void
    {
        $stats = TransferStats::fromCurlInfo(['namelookup_time_us' => 20, 'connect_time_us' => 0, 'num_connects' => 0]);

        self::assertTrue($stats->reusedConnection);
        self::assertSame(0.0, $stats->connectMs);
    }

    public function testMissingOrOddValuesBecomeZerosAndBlanks(): void
    {
        self::assertEquals(
            new TransferStats(0.0, 0.0, 0.0, 0.0, 0.0, '', true, '', 0),
            TransferStats::fromCurlInfo(['total_time_us' => 1.5, 'http_version' => '2', 'primary_ip' => 7, 'redirect_count' => '1']),
        );
    }

    /** @return iterable<string, array{int, string}> */
    public static function versions(): iterable
    {
        yield 'HTTP/1.0' => [\CURL_HTTP_VERSION_1_0, '1.0'];
        yield 'HTTP/1.1' => [\CURL_HTTP_VERSION_1_1, '1.1'];
        yield 'HTTP/2' => [\CURL_HTTP_VERSION_2_0, '2'];
        yield 'HTTP/3' => [30, '3'];
        yield 'none' => [0, ''];
    }

    #[DataProvider('versions')]
    public function testNamesTheHttpVersion(int $curl, string $version): void
    {
        self::assertSame($version, TransferStats::fromCurlInfo(['http_version' => $curl])->httpVersion);
    }
}
