<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Storage;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Storage\RequestBytes;
use WarmHttp\Relay\Storage\Spool;
use WarmHttp\Relay\Storage\SpooledRequest;
use WarmHttp\Tests\Unit\Support\TempDirectory;

final class RequestBytesTest extends TestCase
{
    public function testKeepsEveryByteOfHeadersAndBody(): void
    {
        $request = new SpooledRequest(0, 'POST', 'https://a.example/h?x=1', [['X-Signature', "sha256=\xFF\xFE\x00\x80"], ['X-Empty', '']], "\xC3\x28\x00body", 'key', 0, 1_800_000_000.125);

        self::assertEquals($request, RequestBytes::decode(RequestBytes::encode($request)));
        self::assertSame($request->headers, RequestBytes::decodeHeaders(RequestBytes::encodeHeaders($request->headers)));
    }

    public function testBytesCutShortOrWithMoreAfterThemAreNoRequest(): void
    {
        $bytes = RequestBytes::encode(new SpooledRequest(0, 'GET', 'https://a.example/', [['A', 'b']], 'body', 'k', 0, 1.0));

        foreach ([0, 7, 8, 12, \strlen($bytes) - 1] as $cut) {
            self::assertNull(RequestBytes::decode(substr($bytes, 0, $cut)), "cut at $cut");
        }
        self::assertNull(RequestBytes::decode($bytes . 'x'));
    }

    public function testHeadersSpooledAsJsonByEarlierVersionsAreStillRead(): void
    {
        self::assertSame([['Content-Type', 'text/plain']], RequestBytes::decodeHeaders('[["Content-Type","text/plain"]]'));
    }

    public function testTheSpoolKeepsHeaderBytesAndReadsRowsOfEarlierVersions(): void
    {
        $temp = new TempDirectory();
        try {
            $path = $temp->path . '/spool.sqlite';
            $spool = Spool::open($path, false);
            $spool->commit([new SpooledRequest(0, 'POST', 'https://a.example/', [['X-Sig', "\xFF\xFE"]], '', 'k', 0, 1.0)]);
            $db = new \PDO('sqlite:' . $path);
            $db->exec("INSERT INTO pending (method, uri, headers, body, idempotency_key, attempts, next_attempt_at, created_at) VALUES ('POST', 'https://b.example/', '[[\"X-Old\",\"caf\\u00e9\"]]', '', 'k2', 0, 2.0, 2.0)");

            [$new, $old] = $spool->due(10.0, 10, []);

            self::assertSame([['X-Sig', "\xFF\xFE"]], $new->headers);
            self::assertSame([['X-Old', 'café']], $old->headers);
        } finally {
            $temp->remove();
        }
    }
}
