<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Internal;

use Nyholm\Psr7\Request;
use PHPUnit\Framework\TestCase;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Internal\Psr7Exchange;
use WarmHttp\Response;

final class Psr7ExchangeTest extends TestCase
{
    public function testABufferedAnswerBecomesAResponse(): void
    {
        $raw = "HTTP/2 200 \r\ncontent-type: text/plain\r\n\r\nok";

        $response = Psr7Exchange::buffered(new Request('GET', 'https://api.example.com/x'), $raw, self::info(\strlen($raw) - 2));

        self::assertInstanceOf(Response::class, $response);
        self::assertSame([200, 'text/plain', 'ok'], [$response->getStatusCode(), $response->getHeaderLine('Content-Type'), (string) $response->getBody()]);
    }

    public function testAMalformedAnswerFailsTheRequestItWasFor(): void
    {
        $raw = "HTTP/1.1 20x OK\r\n\r\n";
        $request = new Request('GET', 'https://api.example.com/x');

        $failure = Psr7Exchange::buffered($request, $raw, self::info(\strlen($raw)));

        self::assertInstanceOf(NetworkException::class, $failure);
        self::assertSame($request, $failure->getRequest());
        self::assertStringStartsWith('GET https://api.example.com/x failed: the response has a malformed status line', $failure->getMessage());
    }

    /** @return array{header_size: int, num_connects: int, http_version: int, starttransfer_time_us: int, total_time_us: int, primary_ip: string, primary_port: int} */
    private static function info(int $headerSize): array
    {
        return ['header_size' => $headerSize, 'num_connects' => 0, 'http_version' => \CURL_HTTP_VERSION_2_0, 'starttransfer_time_us' => 1, 'total_time_us' => 2, 'primary_ip' => '127.0.0.1', 'primary_port' => 443];
    }
}
