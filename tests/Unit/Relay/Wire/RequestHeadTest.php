<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Wire;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Wire\RequestHead;

final class RequestHeadTest extends TestCase
{
    /** @return iterable<string, array{list<array{string, string}>, bool}> */
    public static function expectations(): iterable
    {
        yield 'Expect: 100-continue' => [[['Expect', '100-continue']], true];
        yield 'any letter case, padded' => [[['expect', ' 100-Continue ']], true];
        yield 'after other headers' => [[['Host', 'a'], ['Expect', '100-continue']], true];
        yield 'no Expect' => [[['Host', 'a']], false];
        yield 'another expectation' => [[['Expect', '200-ok']], false];
        yield 'the value in another header' => [[['X-Expect', '100-continue']], false];
    }

    /** @param list<array{string, string}> $headers */
    #[DataProvider('expectations')]
    public function testExpectsContinueOnlyForExpect100Continue(array $headers, bool $expected): void
    {
        $head = new RequestHead('POST', '/', $headers, 20, false, 5, false);

        self::assertSame($expected, $head->expectsContinue());
    }

    public function testHeaderFindsTheFirstValueInAnyLetterCase(): void
    {
        $head = new RequestHead('POST', '/', [['X-WarmHttp-Token', 'a'], ['x-warmhttp-token', 'b']], 20, false, null, false);

        self::assertSame('a', $head->header('x-WARMHTTP-token'));
        self::assertNull($head->header('Authorization'));
    }
}
