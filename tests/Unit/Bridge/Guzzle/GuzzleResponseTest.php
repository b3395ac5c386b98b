<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Bridge\Guzzle;

use GuzzleHttp\Psr7\Response as GuzzleResponseClass;
use PHPUnit\Framework\TestCase;
use WarmHttp\Bridge\Guzzle\GuzzleResponse;
use WarmHttp\Internal\MemoryStream;
use WarmHttp\Response;

/**
 * The pool's response as Guzzle's Response: everything carried over, the body kept (not
 * copied), detach() as Guzzle's php://temp stream, a status outside 100–599 refused.
 */
final class GuzzleResponseTest extends TestCase
{
    public function testCarriesStatusReasonVersionHeadersAndBody(): void
    {
        $ours = new GuzzleResponseClass(201, ['X-A' => ['1', '2'], 'Content-Type' => 'text/plain'], new MemoryStream('abc'), '2', 'Made');
        $response = GuzzleResponse::from(self::notGuzzle($ours));

        self::assertSame([201, 'Made', '2'], [$response->getStatusCode(), $response->getReasonPhrase(), $response->getProtocolVersion()]);
        self::assertSame(['X-A' => ['1', '2'], 'Content-Type' => ['text/plain']], $response->getHeaders());
        self::assertSame('abc', (string) $response->getBody());
    }

    public function testDetachGivesAResourceWithTheBodyWhereTheReaderWas(): void
    {
        $body = GuzzleResponse::from(self::notGuzzle(new GuzzleResponseClass(200, [], new MemoryStream('abcdef'))))->getBody();
        $body->read(2);
        $resource = $body->detach();

        self::assertIsResource($resource);
        self::assertSame('cdef', stream_get_contents($resource));
        self::assertSame('abcdef', stream_get_contents($resource, -1, 0));
        self::assertSame('php://temp', stream_get_meta_data($resource)['uri'] ?? null);
        self::assertNull($body->getSize());
        self::assertFalse($body->isReadable());
        self::assertNull($body->detach(), 'detached once, as Guzzle\'s Stream');
    }

    public function testAStatusOver599IsRefusedAsGuzzlesResponseRefusesIt(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage('Status code must be an integer value between 1xx and 5xx.');

        GuzzleResponse::from(self::notGuzzle(new \Nyholm\Psr7\Response(600)));
    }

    /** The pool's WarmHttp\Response around a PSR-7 response. */
    private static function notGuzzle(\Psr\Http\Message\ResponseInterface $response): Response
    {
        return new Response($response, []);
    }
}
