<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Wire;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Wire\BadWireRequest;
use WarmHttp\Relay\Wire\RequestHead;

final class BadWireRequestTest extends TestCase
{
    public function testWithHeadKeepsStatusAndMessageAndAddsTheTargetAndHead(): void
    {
        $head = new RequestHead('POST', 'http://127.0.0.1/x', [['X-A', '1']], 40, false, null, true);
        $e = (new BadWireRequest(413, 'too large'))->withHead($head);

        self::assertSame(413, $e->status);
        self::assertSame('too large', $e->getMessage());
        self::assertSame('http://127.0.0.1/x', $e->target);
        self::assertSame($head, $e->head);
    }
}
