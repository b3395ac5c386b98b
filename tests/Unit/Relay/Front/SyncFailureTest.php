<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Front;

use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\FailureKind;
use WarmHttp\Relay\Front\SyncFailure;
use WarmHttp\Relay\Outbound\UpstreamFailure;

final class SyncFailureTest extends TestCase
{
    public function testAnUpstreamTimeoutIsA504NamingItsKindErrnoAndWords(): void
    {
        $answer = SyncFailure::upstream(new UpstreamFailure(FailureKind::Timeout, 'GET http://a.test/x failed: no connection within the "connect_timeout" option.', 28), 'GET http://a.test/x failed: ');

        self::assertStringStartsWith("HTTP/1.1 504 Gateway Timeout\r\n", $answer);
        self::assertStringContainsString("\r\nX-WarmHttp-Failure: timeout 28\r\n", $answer);
        self::assertStringContainsString("\r\nX-WarmHttp-Failure-Detail: no connection within the \"connect_timeout\" option\r\n", $answer);
        self::assertStringContainsString("\r\nX-WarmHttp-Error: ", $answer);
    }

    public function testEveryKindHasItsName(): void
    {
        $names = [];
        foreach (FailureKind::cases() as $kind) {
            $answer = SyncFailure::upstream(new UpstreamFailure($kind, 'what'), 'GET / failed: ');
            preg_match('/X-WarmHttp-Failure: (\S+) 0/', $answer, $m);
            $names[$kind->name] = $m[1] ?? null;
        }

        self::assertSame(['Request' => 'request', 'Network' => 'network', 'Timeout' => 'timeout', 'TooLarge' => 'too-large'], $names);
    }

    public function testADetailCannotBreakTheHead(): void
    {
        $answer = SyncFailure::answer(502, 'network', "line one\r\nX-Forged: 1\0" . str_repeat('x', 5000));

        [$head] = explode("\r\n\r\n", $answer, 2);
        self::assertStringNotContainsString("\r\nX-Forged", $head);
        self::assertLessThan(2400, \strlen((string) strstr($head, 'X-WarmHttp-Failure-Detail')));
    }
}
