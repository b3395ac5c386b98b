<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Outbound;

use PHPUnit\Framework\TestCase;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Internal\FailureKind;
use WarmHttp\Internal\ResponseSink;
use WarmHttp\Internal\Transfer;
use WarmHttp\Internal\TransferSpec;
use WarmHttp\Relay\Outbound\UpstreamExchange;
use WarmHttp\Relay\Outbound\UpstreamFailure;

/**
 * An answer is read only from a connection to the address the guard checked. With the pin
 * (CURLOPT_CONNECT_TO) curl cannot connect elsewhere, so no real transfer can show a
 * mismatch: curl's info is given here as CurlInfo::read() would give it.
 */
final class UpstreamExchangeTest extends TestCase
{
    public function testAnAnswerFromAnotherAddressIsAFailureAndASecurityEvent(): void
    {
        $log = self::logger();
        $exchange = new UpstreamExchange('203.0.113.7', $log);
        $transfer = self::transfer($exchange);

        $outcome = $exchange->response($transfer, curl_init(), self::info('127.0.0.1'));

        self::assertInstanceOf(UpstreamFailure::class, $outcome);
        self::assertSame(FailureKind::Request, $outcome->kind, 'never retried, never a delivery');
        self::assertStringContainsString('curl connected to "127.0.0.1", not to 203.0.113.7', $outcome->getMessage());
        self::assertSame('critical', $log->records[0][0]);
        self::assertStringStartsWith('Security: ', $log->records[0][1]);
        self::assertSame(['method' => 'POST', 'uri' => 'http://a.test/x', 'checked_address' => '203.0.113.7', 'connected_address' => '127.0.0.1'], $log->records[0][2]);
    }

    public function testNoAddressAtAllIsAMismatchToo(): void
    {
        $exchange = new UpstreamExchange('203.0.113.7', self::logger());

        self::assertInstanceOf(UpstreamFailure::class, $exchange->response(self::transfer($exchange), curl_init(), self::info('')));
    }

    public function testTheCheckedAddressInAnotherSpellingIsAccepted(): void
    {
        $log = self::logger();
        $exchange = new UpstreamExchange('2001:db8::7', $log);

        $outcome = $exchange->response(self::transfer($exchange), curl_init(), self::info('2001:0db8:0:0::7'));

        self::assertInstanceOf(ResponseInterface::class, $outcome);
        self::assertSame([], $log->records);
    }

    private static function transfer(UpstreamExchange $exchange): Transfer
    {
        return new Transfer(new TransferSpec('POST', 'http://a.test/x', 'http', 'a.test', 80, true, [], ResponseSink::Discarded), $exchange);
    }

    /** @return array{header_size: int, num_connects: int, http_version: int, namelookup_time_us: int, connect_time_us: int, appconnect_time_us: int, starttransfer_time_us: int, total_time_us: int, primary_ip: string, primary_port: int, redirect_count: int} */
    private static function info(string $primaryIp): array
    {
        return ['header_size' => 0, 'num_connects' => 1, 'http_version' => 2, 'namelookup_time_us' => 0, 'connect_time_us' => 0, 'appconnect_time_us' => 0, 'starttransfer_time_us' => 0, 'total_time_us' => 0, 'primary_ip' => $primaryIp, 'primary_port' => 80, 'redirect_count' => 0];
    }

    private static function logger(): RecordingLogger
    {
        return new RecordingLogger();
    }
}
