<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Bridge\Guzzle;

use GuzzleHttp\Exception\RequestException;
use GuzzleHttp\Psr7\Request;
use GuzzleHttp\Psr7\Response;
use PHPUnit\Framework\TestCase;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Bridge\Guzzle\ResponseBody;
use WarmHttp\Internal\MemoryStream;

final class ResponseBodyTest extends TestCase
{
    public function testAnUnencodedBodyIsHandedOnUntouched(): void
    {
        $response = new Response(200, [], new MemoryStream('plain'));

        self::assertSame($response, self::finish(self::request(), $response, ['decode_content' => true]));
    }

    public function testDecodesIntoATemporaryStream(): void
    {
        $response = self::finish(self::request(), self::gzipped('hello'), ['decode_content' => true]);

        self::assertSame('hello', (string) $response->getBody());
        self::assertSame('php://temp', $response->getBody()->getMetadata('uri'));
    }

    public function testDecodesStraightIntoTheSink(): void
    {
        $sink = fopen('php://memory', 'w+');
        self::assertNotFalse($sink);
        $response = self::finish(self::request(), self::gzipped('into the sink'), ['decode_content' => true, 'sink' => $sink]);

        rewind($sink);
        self::assertSame('into the sink', stream_get_contents($sink));
        self::assertSame('into the sink', (string) $response->getBody());
    }

    public function testAnEmptyEncodedBodyIsNoError(): void
    {
        $response = self::finish(self::request(), new Response(204, ['Content-Encoding' => 'gzip']), ['decode_content' => true]);

        self::assertSame('', (string) $response->getBody());
        self::assertSame('gzip', $response->getHeaderLine('x-encoded-content-encoding'));
    }

    public function testACorruptBodyFailsAsGuzzlesCurlError61(): void
    {
        $request = self::request('http://user:secret@127.0.0.1/x');
        try {
            self::finish($request, new Response(200, ['Content-Encoding' => 'gzip'], 'not gzip'), ['decode_content' => true]);
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
        $response = self::finish(self::request(), self::gzipped('live'), ['decode_content' => true, 'stream' => true, 'sink' => $sink]);

        self::assertFalse($response->getBody()->isSeekable());
        self::assertSame('live', (string) $response->getBody());
        self::assertSame(0, fstat($sink)['size'] ?? null);
    }

    public function testTheHeadHasTheFinalHeadersAndAnEmptySinkUntilTheBodyIsWritten(): void
    {
        $body = ResponseBody::receive(self::request(), self::gzipped('later'), ['decode_content' => true]);

        self::assertSame('gzip', $body->head()->getHeaderLine('x-encoded-content-encoding'));
        self::assertSame('', (string) $body->head()->getBody(), 'on_headers sees the sink before the body, as with Guzzle');
        self::assertSame('later', (string) $body->write()->getBody());
    }

    public function testMoreThanFiveCodingsFailBeforeTheHead(): void
    {
        $this->expectException(RequestException::class);
        $this->expectExceptionMessage('cURL error 61: Reject response due to more than 5 content encodings');

        ResponseBody::receive(self::request(), new Response(200, ['Content-Encoding' => 'gzip, gzip, gzip, gzip, gzip, gzip']), ['decode_content' => true]);
    }

    /** @param array<string, mixed> $options */
    private static function finish(Request $request, Response $response, array $options): ResponseInterface
    {
        return ResponseBody::receive($request, $response, $options)->write();
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
