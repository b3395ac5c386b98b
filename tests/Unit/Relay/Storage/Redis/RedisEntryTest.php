<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Storage\Redis;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Storage\Redis\RedisEntry;
use WarmHttp\Relay\Storage\RequestBytes;

final class RedisEntryTest extends TestCase
{
    public function testARequestARelayWroteComesBackAsItWas(): void
    {
        $request = RedisEntry::hydrate(7, self::row());

        self::assertSame([7, 'POST', 'https://hooks.example/a?b=c', [['Content-Type', 'text/plain'], ['X-Signature', "sha256=\x80\xff bytes"]], 'body', 'key-7', 2, 1700000000.5], [$request->id, $request->method, $request->uri, $request->headers, $request->body, $request->idempotencyKey, $request->attempts, $request->createdAt]);
    }

    public function testWhatTheFrontWouldHaveDroppedIsDropped(): void
    {
        $headers = [['Host', 'internal.example'], ['Content-Length', '100'], ['Transfer-Encoding', 'chunked'], ['X-WarmHttp-Mode', 'sync'], ['Idempotency-Key', 'other'], ['Proxy-Authorization', 'x'], ['Accept', '*/*']];

        self::assertSame([['Accept', '*/*']], RedisEntry::hydrate(1, self::row([2 => RequestBytes::encodeHeaders($headers)]))->headers);
    }

    /** @return iterable<string, array{array<int, mixed>, string}> */
    public static function refused(): iterable
    {
        yield 'a request line in the method' => [[0 => "POST / HTTP/1.1\r\nX: y"], 'its method or a header name is not a token'];
        yield 'an empty method' => [[0 => ''], 'not a token'];
        yield 'a space in a header name' => [[2 => RequestBytes::encodeHeaders([['X Forged', 'a']])], 'not a token'];
        yield 'an empty header name' => [[2 => RequestBytes::encodeHeaders([['', 'a']])], 'not a token'];
        yield 'CR LF in a header value' => [[2 => RequestBytes::encodeHeaders([['X-A', "a\r\nX-Injected: yes"]])], 'a header value holds CR, LF or NUL'];
        yield 'NUL in the key' => [[4 => "key\0"], 'Idempotency-Key'];
        yield 'a space in the target' => [[1 => 'http://a.example/ HTTP/1.1'], 'the target a space'];
        yield 'JSON headers' => [[2 => '[[1,2]]'], 'not in the relay\'s form'];
        yield 'truncated headers' => [[2 => substr(RequestBytes::encodeHeaders([['X-A', 'b']]), 0, -1)], 'truncated'];
        yield 'a number where a string belongs' => [[0 => 5], 'missing or of the wrong type'];
        yield 'no target' => [[1 => false], 'missing or of the wrong type'];
        yield 'attempts out of range' => [[5 => '99999999999999999999'], 'not a number in range'];
        yield 'negative attempts' => [[5 => '-1'], 'not a number in range'];
        yield 'an infinite creation time' => [[6 => '1e400'], 'not a number in range'];
    }

    /** @param array<int, mixed> $fields */
    #[DataProvider('refused')]
    public function testWhatNoRelayCouldHaveWrittenIsRefusedSayingWhy(array $fields, string $why): void
    {
        $this->expectException(\UnexpectedValueException::class);
        $this->expectExceptionMessage($why);
        RedisEntry::hydrate(1, self::row($fields));
    }

    /**
     * @param array<int, mixed> $fields over a well-formed row's
     *
     * @return list<mixed>
     */
    private static function row(array $fields = []): array
    {
        return array_values(array_replace(['POST', 'https://hooks.example/a?b=c', RequestBytes::encodeHeaders([['Content-Type', 'text/plain'], ['X-Signature', "sha256=\x80\xff bytes"]]), 'body', 'key-7', '2', '1700000000.5'], $fields));
    }
}
