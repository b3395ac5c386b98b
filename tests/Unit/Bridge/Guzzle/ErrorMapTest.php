<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Bridge\Guzzle;

use GuzzleHttp\Exception\ConnectException;
use GuzzleHttp\Exception\RequestException as GuzzleRequestException;
use GuzzleHttp\Psr7\Request;
use PHPUnit\Framework\TestCase;
use WarmHttp\Bridge\Guzzle\ErrorMap;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Exception\ResponseTooLargeException;
use WarmHttp\Exception\TimeoutException;

/** WarmHttp's failures in the message form, class and handler context of Guzzle's CurlHandler. */
final class ErrorMapTest extends TestCase
{
    private const GUIDE = '(see https://curl.se/libcurl/c/libcurl-errors.html)';

    public function testARefusedConnectionIsAConnectExceptionWithLibcurlsMessage(): void
    {
        $request = new Request('GET', 'http://user:secret@127.0.0.1:1/path?q=1');
        $error = new NetworkException($request, 'GET http://127.0.0.1:1/path?q=1 failed: the connection was refused or could not be made (curl error 7: Failed to connect to 127.0.0.1 port 1 after 0 ms: Couldn\'t connect to server).', 7);

        $mapped = ErrorMap::toGuzzle($error, $request);

        self::assertInstanceOf(ConnectException::class, $mapped);
        self::assertSame("cURL error 7: Failed to connect to 127.0.0.1 port 1 after 0 ms: Couldn't connect to server " . self::GUIDE . ' for http://user:***@127.0.0.1:1/path?q=1', $mapped->getMessage());
        self::assertSame($error, $mapped->getPrevious());
        $context = $mapped->getHandlerContext();
        self::assertSame(7, $context['errno']);
        self::assertSame("Failed to connect to 127.0.0.1 port 1 after 0 ms: Couldn't connect to server", $context['error']);
        self::assertSame([], array_diff(self::guzzleContextKeys(), array_keys($context)), 'every key Guzzle puts in the context');
        self::assertIsString($context['curl_version']);
    }

    public function testATimeoutIsCurlError28AndAConnectException(): void
    {
        $request = new Request('GET', 'http://127.0.0.1:9/slow');
        $error = new TimeoutException($request, 'GET http://127.0.0.1:9/slow failed: no complete response within the "timeout" option (0.301 s elapsed).', 28);

        $mapped = ErrorMap::toGuzzle($error, $request);

        self::assertInstanceOf(ConnectException::class, $mapped);
        self::assertSame('cURL error 28: no complete response within the "timeout" option (0.301 s elapsed) ' . self::GUIDE . ' for http://127.0.0.1:9/slow', $mapped->getMessage());
    }

    public function testOtherTransferFailuresAreRequestExceptionsWithoutAResponse(): void
    {
        $request = new Request('GET', 'http://127.0.0.1:9/');
        $reset = new NetworkException($request, 'GET http://127.0.0.1:9/ failed: the connection broke while receiving the response (reset by peer?) (curl error 56: Recv failure: Connection reset by peer).', 56);
        $tooLarge = new ResponseTooLargeException($request, 'GET http://127.0.0.1:9/ failed: the response body is larger than the 10 bytes allowed by the "max_response_bytes" option; it was cut off.');

        foreach ([[$reset, 56, 'Recv failure: Connection reset by peer'], [$tooLarge, 0, 'the response body is larger than the 10 bytes allowed by the "max_response_bytes" option; it was cut off']] as [$error, $errno, $what]) {
            $mapped = ErrorMap::toGuzzle($error, $request);
            self::assertSame(GuzzleRequestException::class, $mapped::class);
            self::assertInstanceOf(GuzzleRequestException::class, $mapped);
            self::assertNull($mapped->getResponse());
            self::assertSame(\sprintf('cURL error %d: %s %s for http://127.0.0.1:9/', $errno, $what, self::GUIDE), $mapped->getMessage());
            self::assertSame($errno, $mapped->getHandlerContext()['errno']);
        }
    }

    public function testAThrowingOnHeadersIsGuzzlesWriteErrorWithTheHead(): void
    {
        $request = new Request('GET', 'http://127.0.0.1:9/');
        $head = new \GuzzleHttp\Psr7\Response(200, ['Content-Type' => 'text/plain']);
        $thrown = new \RuntimeException('no');

        $mapped = ErrorMap::onHeaders($request, $head, $thrown);

        self::assertSame('An error was encountered during the on_headers event', $mapped->getMessage());
        self::assertSame($head, $mapped->getResponse());
        self::assertSame($thrown, $mapped->getPrevious());
        self::assertSame([23, 'Failed writing header', 200], [$mapped->getHandlerContext()['errno'], $mapped->getHandlerContext()['error'], $mapped->getHandlerContext()['http_code']]);
    }

    public function testTheUriIsNotRepeatedWhenTheErrorNamesIt(): void
    {
        $request = new Request('GET', 'http://127.0.0.1:9/');

        self::assertSame('cURL error 3: bad http://127.0.0.1:9/ ' . self::GUIDE, ErrorMap::message(3, 'bad http://127.0.0.1:9/', $request));
    }

    /**
     * What Guzzle 7.16's CurlHandler put in the context of a refused connection on this PHP.
     *
     * @return list<string>
     */
    private static function guzzleContextKeys(): array
    {
        $handle = curl_init();
        $keys = array_keys(curl_getinfo($handle));
        curl_close($handle);

        return ['errno', 'error', 'appconnect_time', ...$keys, 'curl_version'];
    }
}
