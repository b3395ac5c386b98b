<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Client;

use WarmHttp\Response;
use WarmHttp\Tests\Integration\RigTestCase;

/** Responses are read lazily; they must still behave as PSR-7 says. */
final class ResponseTest extends RigTestCase
{
    public function testHeadersAreCaseInsensitiveAndWithersKeepStats(): void
    {
        $client = self::client();
        $response = $client->sendRequest($client->createRequest('GET', self::nginxUrl('h1tls', '/fast')));
        self::assertInstanceOf(Response::class, $response);

        self::assertSame('2', $response->getHeaderLine('content-length'));
        self::assertSame($response->getHeader('Content-Length'), $response->getHeader('CONTENT-LENGTH'));
        self::assertTrue($response->hasHeader('Server'));
        self::assertFalse($response->hasHeader('X-Nope'));
        self::assertSame([], $response->getHeader('X-Nope'));
        self::assertSame('OK', $response->getReasonPhrase());

        $changed = $response->withHeader('X-Added', 'yes')->withStatus(201, 'Made');
        self::assertInstanceOf(Response::class, $changed);
        self::assertSame('yes', $changed->getHeaderLine('x-added'));
        self::assertSame(201, $changed->getStatusCode());
        self::assertSame('2', $changed->getHeaderLine('Content-Length'));
        self::assertFalse($response->hasHeader('X-Added'), 'the original stays as it was');
        self::assertSame(200, $response->getStatusCode());
        self::assertEquals($response->stats(), $changed->stats());
        self::assertSame('ok', (string) $changed->getBody());
    }

    public function testABodyCanBeReadTwiceAndSeeked(): void
    {
        $client = self::client();
        $body = $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', '/bytes/10k')))->getBody();

        self::assertSame(10240, $body->getSize());
        $first = (string) $body;
        self::assertSame(10240, \strlen($first));
        self::assertSame($first, (string) $body, 'a second read returns the whole body again');
        $body->seek(10000);
        self::assertSame(240, \strlen($body->getContents()));
        self::assertTrue($body->eof());
    }

    public function testRequestBodiesWrittenIntoAFactoryRequestAreSent(): void
    {
        $client = self::client();
        $request = $client->createRequest('POST', self::nginxUrl('h2', '/echo-body'));
        $request->getBody()->write('{"written":');
        $request->getBody()->write('true}');

        self::assertSame('{"written":true}', (string) $client->sendRequest($request)->getBody());
        $stream = $client->createStream('abc');
        $stream->seek(0, \SEEK_END);
        $stream->write('def');
        self::assertSame('abcdef', (string) $stream);
    }
}
