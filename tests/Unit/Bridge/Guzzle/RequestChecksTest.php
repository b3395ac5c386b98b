<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Bridge\Guzzle;

use GuzzleHttp\Exception\RequestException;
use GuzzleHttp\Psr7\Request;
use PHPUnit\Framework\TestCase;
use WarmHttp\Bridge\Guzzle\Handler;
use WarmHttp\Bridge\Guzzle\RequestChecks;

/** The handler refuses the requests Guzzle's own cURL handlers refuse, the way they refuse them: thrown, before anything else. */
final class RequestChecksTest extends TestCase
{
    public function testAnAmbiguousHostIsThrownByTheHandlerCall(): void
    {
        $request = new Request('GET', 'http://127.0.0.1:1/', ['Host' => 'bücher.example']);

        $this->expectException(RequestException::class);
        $this->expectExceptionMessage('The request Host header "b\xC3\xBCcher.example" must contain only printable ASCII characters');

        (new Handler())($request, ['on_stats' => static fn() => self::fail('no on_stats, as with Guzzle\'s handlers')]);
    }

    /** @return iterable<string, array{Request, class-string<\Throwable>, string}> */
    public static function refused(): iterable
    {
        $noUri = 'URI must include a scheme and host. Use an absolute URI, a network-path reference starting with //, or configure a base_uri.';
        yield 'a relative URI' => [new Request('GET', '/relative'), RequestException::class, $noUri];
        yield 'no host' => [new Request('GET', 'http:/nohost'), RequestException::class, $noUri];
        yield 'another scheme' => [new Request('GET', 'ftp://127.0.0.1/x'), RequestException::class, "The scheme 'ftp' is not supported."];
        yield 'HTTP/3' => [new Request('GET', 'http://127.0.0.1/x', [], null, '3'), \GuzzleHttp\Exception\ConnectException::class, 'HTTP/3 is not supported by the cURL handler.'];
    }

    /** @param class-string<\Throwable> $class */
    #[\PHPUnit\Framework\Attributes\DataProvider('refused')]
    public function testWhatGuzzlesCurlFactoryRefusesIsRefusedWithItsWords(Request $request, string $class, string $message): void
    {
        $this->expectException($class);
        $this->expectExceptionMessage($message);

        RequestChecks::assert($request);
    }

    public function testAnAsciiHostPasses(): void
    {
        RequestChecks::assert(new Request('GET', 'http://xn--bcher-kva.example/', ['Host' => 'xn--bcher-kva.example']));

        $this->addToAssertionCount(1);
    }
}
