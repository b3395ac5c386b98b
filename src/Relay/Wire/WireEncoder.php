<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Wire;

use Psr\Http\Message\RequestInterface;

/**
 * Writes a PSR-7 request in the relay's wire form: HTTP/1.1, absolute-form target.
 *
 * @internal
 */
final class WireEncoder
{
    public static function encode(RequestInterface $request, string $mode, ?string $token): string
    {
        $uri = $request->getUri()->withFragment('');
        $body = $request->getBody();
        if ($body->isSeekable()) {
            $body->rewind();
        }
        $content = $body->getContents();
        $head = \sprintf("%s %s HTTP/1.1\r\nHost: %s\r\nX-WarmHttp-Mode: %s\r\n", $request->getMethod(), (string) $uri, $uri->getAuthority(), $mode);
        if ($token !== null) {
            $head .= 'X-WarmHttp-Token: ' . $token . "\r\n";
        }
        foreach ($request->getHeaders() as $name => $values) {
            $lower = strtolower((string) $name);
            if ($lower === 'host' || $lower === 'content-length' || $lower === 'transfer-encoding' || $lower === 'connection') {
                continue;
            }
            foreach ($values as $value) {
                $head .= $name . ': ' . $value . "\r\n";
            }
        }

        return $head . 'Content-Length: ' . \strlen($content) . "\r\n\r\n" . $content;
    }
}
