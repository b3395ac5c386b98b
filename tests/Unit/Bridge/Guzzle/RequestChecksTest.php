<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Bridge\Guzzle;

use GuzzleHttp\Exception\RequestException;
use GuzzleHttp\Psr7\Request;
use PHPUnit\Framework\TestCase;
use WarmHttp\Bridge\Guzzle\Handler;
use WarmHttp\Bridge\Guzzle\HostCheck;

/** The handler refuses the hosts Guzzle's own handlers refuse, the way they refuse them: thrown, before anything else. */
final class HostCheckTest extends TestCase
{
    public function testAnAmbiguousHostIsThrownByTheHandlerCall(): void
    {
        $request = new Request('GET', 'http://127.0.0.1:1/', ['Host' => 'bücher.example']);

        $this->expectException(RequestException::class);
        $this->expectExceptionMessage('The request Host header "b\xC3\xBCcher.example" must contain only printable ASCII characters');

        (new Handler())($request, ['on_stats' => static fn() => self::fail('no on_stats, as with Guzzle\'s handlers')]);
    }

    public function testAnAsciiHostPasses(): void
    {
        HostCheck::assert(new Request('GET', 'http://xn--bcher-kva.example/', ['Host' => 'xn--bcher-kva.example']));

        $this->addToAssertionCount(1);
    }
}
