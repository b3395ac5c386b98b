<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bridge;

use GuzzleHttp\Psr7\Utils;
use PHPUnit\Framework\Attributes\DataProvider;
use WarmHttp\Tests\Integration\Bridge\Parity\Answer;
use WarmHttp\Tests\Integration\Bridge\Parity\ParityTestCase;

/**
 * Request bodies Guzzle's Client builds or frames before the handler (`expect`, `multipart`,
 * streams of known and unknown size), side by side on Guzzle's default handler and on
 * WarmHttp's: the same bytes must reach the origin, framed the same way, and the caller must
 * see the same answer. The multipart boundary, random per request, is `{boundary}` (Normalise).
 */
final class GuzzleParityBodiesTest extends ParityTestCase
{
    private const OVER_ONE_MB = 1_100_000;

    /** @return iterable<string, array{string, \Closure(): array<string, mixed>}> */
    public static function bodies(): iterable
    {
        $large = str_repeat('x', self::OVER_ONE_MB);
        // Guzzle's Client adds `Expect: 100-Continue` from 1 MB on, or as `expect` says; the
        // origin answers 100 Continue, so both sides wait for it, then send the body.
        yield 'expect true on a small body' => ['POST', static fn(): array => ['expect' => true, 'body' => 'abc']];
        yield 'expect over a threshold' => ['POST', static fn(): array => ['expect' => 2, 'body' => 'abcdef']];
        yield 'expect under a threshold' => ['POST', static fn(): array => ['expect' => 100, 'body' => 'abcdef']];
        yield 'a body over 1 MB (Guzzle expects by default)' => ['PUT', static fn(): array => ['body' => $large]];
        yield 'expect false on a body over 1 MB' => ['PUT', static fn(): array => ['expect' => false, 'body' => $large]];
        yield 'multipart fields and a file' => ['POST', static fn(): array => ['multipart' => [
            ['name' => 'a', 'contents' => 'x y'],
            ['name' => 'file', 'contents' => 'data', 'filename' => 'f.txt', 'headers' => ['X-Part' => '1']],
            ['name' => 'json', 'contents' => '{"a":1}', 'headers' => ['Content-Type' => 'application/json']],
        ]]];
        yield 'multipart with a resource' => ['POST', static fn(): array => ['multipart' => [
            ['name' => 'file', 'contents' => self::resource('from a resource'), 'filename' => 'r.bin'],
        ]]];
        yield 'multipart of unknown size (chunked)' => ['POST', static fn(): array => ['multipart' => [
            ['name' => 'gen', 'contents' => Utils::streamFor(self::generated()), 'filename' => 'g.txt'],
        ]]];
        yield 'a resource body' => ['PUT', static fn(): array => ['body' => self::resource('resource body')]];
        yield 'a body of unknown size (chunked)' => ['POST', static fn(): array => ['body' => Utils::streamFor(self::generated())]];
    }

    /** @param \Closure(): array<string, mixed> $options */
    #[DataProvider('bodies')]
    public function testTheSameBodyReachesTheOriginFramedTheSameWay(string $method, \Closure $options): void
    {
        $result = self::parity()->request($method, '/body', $options, Answer::status(201, ['X-Body: 1'], 'stored', 'Created'));

        self::assertSame(201, $result->guzzle->seen->facts['status'] ?? null);
        self::assertCount(1, $result->guzzle->received);
        self::assertParity($result);
    }

    /** @return resource */
    private static function resource(string $bytes)
    {
        $resource = fopen('php://temp', 'w+');
        \assert(\is_resource($resource));
        fwrite($resource, $bytes);
        rewind($resource);

        return $resource;
    }

    private static function generated(): \Generator
    {
        yield 'one ';
        yield 'two ';
        yield 'three';
    }
}
