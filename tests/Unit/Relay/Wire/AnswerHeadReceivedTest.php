<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Wire;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\MalformedResponse;
use WarmHttp\Internal\MemoryStream;
use WarmHttp\Internal\ResponseParser;
use WarmHttp\Relay\Wire\AnswerHead;

/**
 * AnswerHead::received() checks a sync answer's head in place of ResponseParser: it must take
 * and refuse the same heads, read them the same way, and refuse with the same words.
 */
final class AnswerHeadReceivedTest extends TestCase
{
    /** @return iterable<string, array{string}> */
    public static function heads(): iterable
    {
        yield 'HTTP/2 from nghttp2' => ["HTTP/2 200 \r\nserver: nginx\r\ncontent-type: text/plain\r\ncontent-length: 2\r\n\r\n"];
        yield 'HTTP/2 without fields' => ["HTTP/2 204 \r\n\r\n"];
        yield 'HTTP/1.1 with a reason' => ["HTTP/1.1 503 Service Temporarily Unavailable\r\nRetry-After: 5\r\n\r\n"];
        yield 'HTTP/1.0' => ["HTTP/1.0 404 Not Found\r\n\r\n"];
        yield 'HTTP/3' => ["HTTP/3 200\r\n\r\n"];
        yield 'reason after several spaces' => ["HTTP/1.1 200   Fine  \r\nX-A: b\r\n\r\n"];
        yield 'reason with a tab and obs-text' => ["HTTP/1.1 200 caf\xE9\tok\r\n\r\n"];
        yield 'no status line end' => ['HTTP/1.1 200 OK'];
        yield '1xx and a redirect before' => ["HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 302 Found\r\nLocation: /n\r\n\r\nHTTP/1.1 200 OK\r\nX-A: 1\r\n\r\n"];
        yield 'obs-text, tab and an empty value' => ["HTTP/1.1 200 OK\r\nX-Name: caf\xE9\tau lait\r\nX-Empty:\r\n\r\n"];
        yield 'empty' => [''];
        yield 'not HTTP' => ["ICY 200 OK\r\n\r\n"];
        yield 'unknown version' => ["HTTP/1.2 200 OK\r\n\r\n"];
        yield 'two-digit status' => ["HTTP/1.1 20 OK\r\n\r\n"];
        yield 'four-digit status' => ["HTTP/1.1 2000 OK\r\n\r\n"];
        yield 'status 600' => ["HTTP/1.1 600 Odd\r\n\r\n"];
        yield 'status 099' => ["HTTP/1.1 099 Odd\r\n\r\n"];
        yield 'letters for a status' => ["HTTP/1.1 abc OK\r\n\r\n"];
        yield 'no space before the reason' => ["HTTP/1.1 200OK\r\n\r\n"];
        yield 'two spaces before the status' => ["HTTP/1.1  200 OK\r\n\r\n"];
        yield 'CR in the status line' => ["HTTP/1.1 200 O\rK\r\nX-A: b\r\n\r\n"];
        yield 'NUL in the reason' => ["HTTP/1.1 200 O\0K\r\n\r\n"];
        yield 'space in a name' => ["HTTP/1.1 200 OK\r\nBad Name: v\r\n\r\n"];
        yield 'no colon' => ["HTTP/1.1 200 OK\r\nX-A: b\r\nNoColon\r\n\r\n"];
        yield 'obs-fold' => ["HTTP/1.1 200 OK\r\nX-A: b\r\n  folded\r\n\r\n"];
        yield 'DEL in a value' => ["HTTP/1.1 200 OK\r\nX-A: a\x7Fb\r\n\r\n"];
        yield 'bare CR in a value' => ["HTTP/1.1 200 OK\r\nX-A: a\rb\r\n\r\n"];
        yield 'bare LF everywhere' => ["HTTP/1.1 200 OK\nContent-Length: 5\n\n"];
        yield 'bare LF in one line' => ["HTTP/1.1 200 OK\r\nX-A: b\nContent-Length: 5\r\n\r\n"];
        yield 'bare LF in an earlier block' => ["HTTP/1.1 100 Continue\n\nHTTP/1.1 200 OK\r\n\r\n"];
    }

    #[DataProvider('heads')]
    public function testTakesAndRefusesWhatResponseParserDoes(string $raw): void
    {
        try {
            $response = ResponseParser::parse($raw, \strlen($raw), [], new MemoryStream(''));
            $expected = [$response->getStatusCode(), $response->getProtocolVersion(), $response->getReasonPhrase(), $response->getHeaders()];
        } catch (MalformedResponse $e) {
            $expected = $e->getMessage();
        }

        try {
            $head = AnswerHead::received($raw);
            $fields = [];
            foreach ($head->fields === '' ? [] : explode("\r\n", $head->fields) as $line) {
                [$name, $value] = explode(':', $line, 2);
                $fields[$name][] = trim($value, " \t");
            }
            $actual = [$head->status, $head->version, $head->reason, self::merged($fields)];
        } catch (MalformedResponse $e) {
            $actual = $e->getMessage();
        }

        self::assertSame($expected, $actual);
    }

    public function testKeepsOnlyTheLinesTheCallerMaySeeAndReadsTheFraming(): void
    {
        $received = AnswerHead::received("HTTP/1.1 200 OK\r\nConnection: keep-alive, X-Secret\r\nX-Secret: 1\r\nContent-Length: 2\r\nX-Kept: yes\r\nTransfer-Encoding: chunked\r\nProxy-Auth: p\r\n\r\n");

        self::assertSame("X-Kept: yes\r\n", $received->block);
        self::assertSame(['2'], $received->contentLengths);
        self::assertTrue($received->transferEncoding);
    }

    /**
     * Header names merged case-insensitively under their first spelling, as PSR-7 does.
     *
     * @param array<string, list<string>> $fields
     *
     * @return array<string, list<string>>
     */
    private static function merged(array $fields): array
    {
        $merged = $first = [];
        foreach ($fields as $name => $values) {
            $key = strtolower((string) $name);
            $first[$key] ??= (string) $name;
            $merged[$first[$key]] = [...$merged[$first[$key]] ?? [], ...$values];
        }

        return $merged;
    }
}
