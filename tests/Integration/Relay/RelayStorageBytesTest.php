<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;

/**
 * Issue 13 item 17: async mode stored headers as JSON with JSON_INVALID_UTF8_SUBSTITUTE, so a
 * header byte 0xFF reached the destination as U+FFFD and a signed webhook's signature broke.
 * Both ways a delivery is read are attacked: straight from the journal (first attempt) and back
 * from the SQLite spool (the retry after a 503).
 */
final class RelayStorageBytesTest extends TestCase
{
    public function testHeaderAndBodyBytesThatAreNotUtf8ArriveByteIdentical(): void
    {
        $origin = RelayStorageOrigin::start(503);
        $relay = RelayProcess::start(['--allow-private-networks', '--retry-base=0.2', '--retry-cap=0.2']);
        $signature = "sha256=\xFF\xFE\x80abc\xC3";
        $body = "\xC3\x28 not UTF-8 \xFF\x00\xF7WJ\x02 and a NUL";

        $answer = $relay->raw(\sprintf("POST %s HTTP/1.1\r\nX-Signature: %s\r\nContent-Length: %d\r\n\r\n%s", $origin->url('/signed'), $signature, \strlen($body), $body));
        self::assertStringStartsWith('HTTP/1.1 202 ', $answer);
        self::assertTrue(self::await(static fn(): bool => \count($origin->requests()) >= 1), 'the first attempt arrives');
        $origin->answer(200);
        self::assertCount(1, $origin->awaitDelivered(1, 15.0), 'the retry, read back from the spool, arrives');

        $attempts = $origin->requests();
        self::assertGreaterThanOrEqual(2, \count($attempts));
        foreach ($attempts as $n => $attempt) {
            self::assertSame($signature, $attempt['headers']['x-signature'] ?? null, "attempt $n: header bytes");
            self::assertSame($body, $attempt['body'], "attempt $n: body bytes");
        }
        $relay->remove();
    }

    private static function await(\Closure $until): bool
    {
        $deadline = microtime(true) + 10;
        while (!$until()) {
            if (microtime(true) > $deadline) {
                return false;
            }
            usleep(20_000);
        }

        return true;
    }
}
