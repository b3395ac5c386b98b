<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Bridge\Guzzle;

use GuzzleHttp\Exception\RequestException;
use GuzzleHttp\Psr7\Request;
use GuzzleHttp\Psr7\Response;
use PHPUnit\Framework\TestCase;
use WarmHttp\Bridge\Guzzle\ResponseBody;
use WarmHttp\Internal\MemoryStream;

final class ResponseBodyTest extends TestCase
{
    public function testAnUnencodedBodyIsHandedOnUntouched(): void
    {
        $response = new Response(200, [], new MemoryStream('plain'));

        self::assertSame($response, ResponseBody::finish(self::request(), $response, ['decode_content' => true]));
    }

    public function testDecodesIntoATemporaryStream(): void
    {
        $response = ResponseBody::finish(self::request(), self::gzipped('hello'), ['decode_content' => true]);

        self::assertSame('hello', (string) $response->getBody());
        self::assertSame('php://temp', $response->getBody()->getMetadata('uri'));
    }

    public function testDecodesStraightIntoTheSink(): void
    {
        $sink = fopen('php://memory', 'w+');
        self::assertNotFalse($sink);
        $response = ResponseBody::finish(self::request(), self::gzipped('into the sink'), ['decode_content' => true, 'sink' => $sink]);

        rewind($sink);
        self::assertSame('into the sink', stream_get_contents($sink));
        self::assertSame('into the sink', (string) $response->getBody());
    }

    public function testAnEmptyEncodedBodyIsNoError(): void
    {
        $response = ResponseBody::finish(self::request(), new Response(204, ['Content-Encoding' => 'gzip']), ['decode_content' => true]);

        self::assertSame('', (string) $response->getBody());
        self::assertSame('gzip', $response->getHeaderLine('x-encoded-content-encoding'));
    }

    public function testACorruptBodyFailsAsGuzzlesCurlError61(): void
    {
        $request = self::request('http://user:secret@127.0.0.1/x');
        try {
            ResponseBody::finish($request, new Response(200, ['Content-Encoding' => 'gzip'], 'not gzip'), ['decode_content' => true]);
            self::fail('a corrupt body was accepted');
        } catch (RequestException $e) {
            self::assertStringStartsWith('cURL error 61: Error while processing content unencoding', $e->getMessage());
            self::assertStringEndsWith('for http://user:***@127.0.0.1/x', $e->getMessage());
            self::assertSame(61, $e->getHandlerContext()['errno']);
            self::assertSame($request, $e->getRequest());
            self::assertSame('gzip', $e->getResponse()?->getHeaderLine('x-encoded-content-encoding'));
        }
    }

    public function testStreamKeepsTheLiveBodyAndIgnoresTheSinkAsGuzzlesStreamHandler(): void
    {
        $sink = fopen('php://memory', 'w+');
        self::assertNotFalse($sink);
        $response = ResponseBody::finish(self::request(), self::gzipped('live'), ['decode_content' => true, 'stream' => true, 'sink' => $sink]);

        self::assertFalse($response->getBody()->isSeekable());
        self::assertSame('live', (string) $response->getBody());
        self::assertSame(0, fstat($sink)['size'] ?? null);
    }

    private static function gzipped(string $text): Response
    {
        return new Response(200, ['Content-Encoding' => 'gzip'], new MemoryStream((string) gzencode($text)));
    }

    private static function request(string $url = 'http://127.0.0.1/'): Request
    {
        return new Request('GET', $url);
    }
}
