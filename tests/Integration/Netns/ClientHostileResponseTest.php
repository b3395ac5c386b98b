<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Netns;

use PHPUnit\Framework\Attributes\DataProvider;
use WarmHttp\Client;
use WarmHttp\Exception\NetworkException;

/**
 * Issue 13 item 4, the Client's side: a malformed head that libcurl 7.88 lets through (bare LF,
 * controls in the reason, a status outside 100-599, folded or misnamed header lines) is a
 * NetworkException, never a 200 carrying the head in its reason, whether the body is buffered
 * or streamed, and when an HTTP/1.1 server claims HTTP/2 in its status line; and the next request on the same Client gets its own answer.
 */
final class ClientHostileResponseTest extends LoopbackOnlyTestCase
{
    private const TRUSTED = "HTTP/1.1 200 OK\r\nX-Origin: trusted\r\nContent-Length: 12\r\n\r\ntrusted-body";

    private static ?SyncHostileOrigin $hostile = null;

    private static ?SyncHostileOrigin $trusted = null;

    public static function tearDownAfterClass(): void
    {
        self::$hostile?->stop();
        self::$trusted?->stop();
        self::$hostile = self::$trusted = null;
    }

    /** @return array<string, string> path => the hostile answer */
    private static function script(): array
    {
        return [
            'bare-lf' => "HTTP/1.1 200 OK\nContent-Type: text/plain\nContent-Length: 5\n\nhello",
            'bare-lf-one-line' => "HTTP/1.1 200 OK\r\nX-A: 1\nContent-Length: 5\r\n\r\nhello",
            'cr-in-reason' => "HTTP/1.1 200 OK\rX-Injected: 1\r\nContent-Length: 5\r\n\r\nhello",
            'status-600' => "HTTP/1.1 600 OK\r\nContent-Length: 5\r\n\r\nhello",
            'status-099' => "HTTP/1.1 099 OK\r\nContent-Length: 5\r\n\r\nhello",
            'obs-fold' => "HTTP/1.1 200 OK\r\nX-A: a\r\n b\r\nContent-Length: 5\r\n\r\nhello",
            'space-before-colon' => "HTTP/1.1 200 OK\r\nX-A : b\r\nContent-Length: 5\r\n\r\nhello",
            'nul-in-value' => "HTTP/1.1 200 OK\r\nX-A: a\0b\r\nContent-Length: 5\r\n\r\nhello",
            // curl 7.88 takes an HTTP/2 status line from an HTTP/1.1 server and reports HTTP/2
            'h2-claimed-ctl-in-value' => "HTTP/2 200 \r\nx-a: a\x01b\r\ncontent-length: 5\r\n\r\nhello",
            'h2-claimed-obs-fold' => "HTTP/2 200 \r\nx-a: a\r\n b\r\ncontent-length: 5\r\n\r\nhello",
        ];
    }

    /** @return iterable<string, array{string, bool}> */
    public static function hostileAnswers(): iterable
    {
        foreach (array_keys(self::script()) as $path) {
            yield "$path, buffered" => [$path, false];
            yield "$path, streamed" => [$path, true];
        }
    }

    #[DataProvider('hostileAnswers')]
    public function testAMalformedHeadIsANetworkException(string $path, bool $stream): void
    {
        $client = new Client(['stream' => $stream, 'timeout' => 5.0]);
        try {
            $response = $client->sendRequest($client->createRequest('GET', self::hostile()->url($path)));
            self::fail(\sprintf('A malformed head was taken for a %d answer with reason %s and headers %s', $response->getStatusCode(), json_encode($response->getReasonPhrase()), json_encode($response->getHeaders())));
        } catch (NetworkException $e) {
            self::assertStringContainsString('public.example', $e->getMessage(), 'the message names the destination');
        }

        $response = $client->sendRequest($client->createRequest('GET', self::trusted()->url('trusted')));
        self::assertSame(200, $response->getStatusCode());
        self::assertSame(['trusted'], $response->getHeader('X-Origin'));
        self::assertSame('trusted-body', (string) $response->getBody());
    }

    private static function hostile(): SyncHostileOrigin
    {
        $script = array_map(static fn(string $answer): array => [$answer], self::script());

        return self::$hostile ??= SyncHostileOrigin::start($script, array_keys($script));
    }

    private static function trusted(): SyncHostileOrigin
    {
        return self::$trusted ??= SyncHostileOrigin::start(['trusted' => [self::TRUSTED]]);
    }
}
