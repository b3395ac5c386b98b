<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use GuzzleHttp\Psr7\Response;
use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\StreamInterface;
use WarmHttp\Internal\MemoryStream;

/**
 * The pool's response as the `GuzzleHttp\Psr7\Response` Guzzle's handlers resolve with: code
 * type-hints it (a retry decider's `?Response`, `instanceof` checks in middleware). Status,
 * reason, version and headers are carried over; the body stream is kept, not copied.
 *
 * @internal
 */
final class GuzzleResponse
{
    /** @var (\Closure(Response, array<array<string>>): void)|null */
    private static ?\Closure $headers = null;

    /** @throws \InvalidArgumentException a status outside 100–599, as Guzzle's Response refuses it */
    public static function from(ResponseInterface $response, ?StreamInterface $body = null): Response
    {
        if ($response instanceof Response && $body === null) {
            return $response;
        }
        $body ??= $response->getBody();
        if ($body instanceof MemoryStream) {
            $body = new DetachableBody($body);
        }
        $guzzle = new Response($response->getStatusCode(), [], $body, $response->getProtocolVersion(), $response->getReasonPhrase());
        (self::$headers ??= self::headerSetter())($guzzle, $response->getHeaders());

        return $guzzle;
    }

    /**
     * Sets the headers the pool's parser already checked and trimmed, without Guzzle's
     * constructor checking each name and value again by regex: for six headers the whole
     * conversion costs 1.1 µs this way and 4.7 µs through the constructor (PHP 8.2, 100,000
     * conversions in a loop), on a warm bridged request of ~100 µs CPU. The two properties
     * are MessageTrait's since guzzlehttp/psr7 1.0.
     *
     * @return \Closure(Response, array<array<string>>): void
     */
    private static function headerSetter(): \Closure
    {
        $set = static function (Response $response, array $headers): void {
            $names = [];
            foreach ($headers as $name => $_) {
                $names[strtolower((string) $name)] = (string) $name;
            }
            // MessageTrait's private properties: the closure is bound to Response's scope below.
            $response->headers = $headers; // @phpstan-ignore property.private, assign.propertyType
            $response->headerNames = $names; // @phpstan-ignore property.private
        };

        return \Closure::bind($set, null, Response::class);
    }
}
