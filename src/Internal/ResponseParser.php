<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

use Nyholm\Psr7\Response as Psr7Response;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\StreamInterface;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Response;

/**
 * Turns what curl buffered (header blocks, then the body) into a PSR-7 response.
 * With redirects or 1xx answers several header blocks precede the body: the last one counts.
 *
 * @internal
 */
final class ResponseParser
{
    /** @param array<string, mixed> $curlInfo */
    public static function tryParse(RequestInterface $request, string $raw, int $headerSize, array $curlInfo, ?StreamInterface $body = null): Response|NetworkException
    {
        try {
            return self::parse($request, $raw, $headerSize, $curlInfo, $body);
        } catch (NetworkException $e) {
            return $e;
        }
    }

    /** @param array<string, mixed> $curlInfo */
    public static function parse(RequestInterface $request, string $raw, int $headerSize, array $curlInfo, ?StreamInterface $body = null): Response
    {
        $blocks = explode("\r\n\r\n", rtrim(substr($raw, 0, $headerSize)));
        $lines = explode("\r\n", (string) end($blocks));
        [$version, $status, $reason] = self::statusLine($request, array_shift($lines));
        try {
            $inner = new Psr7Response($status, self::headers($request, $lines), $body ?? substr($raw, $headerSize), $version, $reason);
        } catch (\InvalidArgumentException $e) {
            throw new NetworkException($request, self::describe($request, 'the response is malformed: ' . $e->getMessage()), 0, $e);
        }

        return new Response($inner, $curlInfo);
    }

    /** @return array{string, int, string} */
    private static function statusLine(RequestInterface $request, string $line): array
    {
        if (preg_match('#^HTTP/(\d(?:\.\d)?) (\d{3})(?: (.*))?$#D', $line, $m) !== 1) {
            throw new NetworkException($request, self::describe($request, 'the response has a malformed status line ' . json_encode(substr($line, 0, 80))));
        }

        return [$m[1] === '2' ? '2' : $m[1], (int) $m[2], $m[3] ?? ''];
    }

    /**
     * @param list<string> $lines
     *
     * @return array<string, list<string>>
     */
    private static function headers(RequestInterface $request, array $lines): array
    {
        $headers = [];
        foreach ($lines as $line) {
            $colon = strpos($line, ':');
            if ($colon === false || $colon === 0) {
                throw new NetworkException($request, self::describe($request, 'the response has a malformed header line ' . json_encode(substr($line, 0, 80))));
            }
            $headers[substr($line, 0, $colon)][] = trim(substr($line, $colon + 1), " \t");
        }

        return $headers;
    }

    public static function describe(RequestInterface $request, string $what): string
    {
        return \sprintf('%s %s failed: %s.', $request->getMethod(), (string) $request->getUri(), $what);
    }
}
