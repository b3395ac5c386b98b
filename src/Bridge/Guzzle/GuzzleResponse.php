<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use GuzzleHttp\Psr7\Response;
use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\StreamInterface;
use WarmHttp\Internal\MemoryStream;

/**
 * The pool's response as the `GuzzleHttp\Psr7\Response` Guzzle's handlers resolve with: code
 * type-hints it (a retry decider's `?Response`, `instanceof` checks in middleware). Headers,
 * reason and version are carried over; the body stream is kept, not copied.
 *
 * @internal
 */
final class GuzzleResponse
{
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

        return new Response($response->getStatusCode(), $response->getHeaders(), $body, $response->getProtocolVersion(), $response->getReasonPhrase());
    }
}
