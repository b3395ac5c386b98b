<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bridge;

use GuzzleHttp\Client as GuzzleClient;
use PHPUnit\Framework\Attributes\DataProvider;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Tests\Integration\Bridge\Parity\Answer;
use WarmHttp\Tests\Integration\Bridge\Parity\EchoOrigin;
use WarmHttp\Tests\Integration\Bridge\Parity\ParityTestCase;

/**
 * Exchanges where the request's own headers meet curl's framing and defaults, and answers of
 * unusual shapes, side by side on Guzzle's default handler and on WarmHttp's: what reached the
 * origin and what the caller saw must be the same.
 */
final class GuzzleParityExchangesTest extends ParityTestCase
{
    /** @return iterable<string, array{\Closure(GuzzleClient, EchoOrigin): (ResponseInterface|array<string, mixed>)}> */
    public static function exchanges(): iterable
    {
        yield 'Transfer-Encoding: chunked asked for, with a body of known size' => [static fn(GuzzleClient $c, EchoOrigin $o) => $c->post($o->url('/te'), ['headers' => ['Transfer-Encoding' => 'chunked'], 'body' => 'abc'])];
        yield 'an explicit Expect: 100-continue' => [static fn(GuzzleClient $c, EchoOrigin $o) => $c->post($o->url('/expect'), ['headers' => ['Expect' => '100-continue'], 'body' => 'abc'])];
        yield 'a Content-Length that disagrees with the body' => [static fn(GuzzleClient $c, EchoOrigin $o) => $c->post($o->url('/cl'), ['headers' => ['Content-Length' => '2'], 'body' => 'abc'])];
        yield 'a Content-Type on a GET body' => [static fn(GuzzleClient $c, EchoOrigin $o) => $c->get($o->url('/ct'), ['headers' => ['Content-Type' => 'text/plain'], 'body' => 'x'])];
        yield 'an explicit Accept' => [static fn(GuzzleClient $c, EchoOrigin $o) => $c->get($o->url('/accept'), ['headers' => ['Accept' => 'application/json']])];
        yield 'a User-Agent of its own' => [static fn(GuzzleClient $c, EchoOrigin $o) => $c->get($o->url('/ua'), ['headers' => ['User-Agent' => 'mine/1']])];
        yield 'an empty User-Agent' => [static fn(GuzzleClient $c, EchoOrigin $o) => $c->get($o->url('/ua'), ['headers' => ['User-Agent' => '']])];
        yield 'header name case kept' => [static fn(GuzzleClient $c, EchoOrigin $o) => $c->get($o->url('/case'), ['headers' => ['x-lower' => 'a', 'X-UPPER' => 'b', 'X-Multi' => ['1', '2']]])];
        yield 'Accept-Encoding of its own, decode_content false' => [static fn(GuzzleClient $c, EchoOrigin $o) => $c->get($o->url('/gzip'), ['headers' => ['Accept-Encoding' => 'gzip'], 'decode_content' => false])];
        yield 'decode_content "gzip"' => [static fn(GuzzleClient $c, EchoOrigin $o) => $c->get($o->url('/gzip'), ['decode_content' => 'gzip'])];
        yield 'json on a GET' => [static fn(GuzzleClient $c, EchoOrigin $o) => $c->get($o->url('/json'), ['json' => ['a' => 1]])];
        yield 'form_params on a PUT' => [static fn(GuzzleClient $c, EchoOrigin $o) => $c->put($o->url('/form'), ['form_params' => ['a' => 'b']])];
        yield 'form_params on a DELETE' => [static fn(GuzzleClient $c, EchoOrigin $o) => $c->delete($o->url('/form'), ['form_params' => ['a' => 'b']])];
        yield 'user info in the URI' => [static fn(GuzzleClient $c, EchoOrigin $o) => $c->get('http://u:p@127.0.0.1:' . $o->port() . '/userinfo')];
        yield 'a fragment' => [static fn(GuzzleClient $c, EchoOrigin $o) => $c->get($o->url('/fragment#part'))];
        yield 'a body read to the end of the connection' => [static fn(GuzzleClient $c, EchoOrigin $o) => $c->get($o->url('/eof'))];
        yield 'Connection: close, then the next request' => [static fn(GuzzleClient $c, EchoOrigin $o): array => ['first' => (string) $c->get($o->url('/close'))->getBody(), 'next' => (string) $c->get($o->url('/after'))->getBody()]];
        yield '103 Early Hints before the answer' => [static fn(GuzzleClient $c, EchoOrigin $o) => $c->get($o->url('/early'))];
        yield 'repeated response headers' => [static fn(GuzzleClient $c, EchoOrigin $o) => $c->get($o->url('/repeated'))];
        yield 'an empty reason phrase' => [static fn(GuzzleClient $c, EchoOrigin $o) => $c->get($o->url('/noreason'))];
        yield 'an HTTP/1.0 answer' => [static fn(GuzzleClient $c, EchoOrigin $o) => $c->get($o->url('/http10'))];
        yield '100 response headers of 200 bytes' => [static fn(GuzzleClient $c, EchoOrigin $o) => $c->get($o->url('/bighead'))];
        yield '304 without a body' => [static fn(GuzzleClient $c, EchoOrigin $o) => $c->get($o->url('/304'))];
        yield 'HEAD of an answer with Content-Length' => [static fn(GuzzleClient $c, EchoOrigin $o) => $c->head($o->url('/sized'))];
        yield 'sink to a path' => [static function (GuzzleClient $c, EchoOrigin $o): array {
            $file = (string) tempnam(sys_get_temp_dir(), 'warmhttp-sink');
            $response = $c->get($o->url('/sized'), ['sink' => $file]);
            $written = file_get_contents($file);
            unlink($file);

            return ['file' => $written, 'body' => (string) $response->getBody()];
        }];
    }

    /** @param \Closure(GuzzleClient, EchoOrigin): (ResponseInterface|array<string, mixed>) $exchange */
    #[DataProvider('exchanges')]
    public function testTheSameExchange(\Closure $exchange): void
    {
        self::assertParity(self::parity()->scenario($exchange, self::answers(), ['http_errors' => false]));
    }

    /** @return array<string, Answer> */
    private static function answers(): array
    {
        return [
            '/gzip' => Answer::status(200, ['Content-Encoding: gzip'], (string) gzencode('zipped')),
            '/eof' => Answer::raw("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nto the end")->closing(),
            '/close' => Answer::status(200, ['Connection: close'], 'closing')->closing(),
            '/early' => Answer::raw("HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"),
            '/repeated' => Answer::status(200, ['X-D: 1', 'X-D: 2', 'Set-Cookie: a=1', 'Set-Cookie: b=2'], 'd'),
            '/noreason' => Answer::raw("HTTP/1.1 200 \r\nContent-Length: 1\r\n\r\nx"),
            '/http10' => Answer::raw("HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx"),
            '/bighead' => Answer::status(200, array_map(static fn(int $i): string => "X-H{$i}: " . str_repeat('v', 200), range(1, 100)), 'b'),
            '/304' => Answer::raw("HTTP/1.1 304 Not Modified\r\nETag: x\r\n\r\n"),
            '/sized' => Answer::status(200, ['Content-Type: text/plain'], 'sized body'),
        ];
    }
}
