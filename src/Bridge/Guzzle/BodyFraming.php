<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use Psr\Http\Message\RequestInterface;

/**
 * A POST or PUT with an empty body goes out as from Guzzle's CurlHandler: its CurlFactory
 * (applyMethod) puts `Content-Length: 0` first in the request's header lines, so it reaches the
 * server right after Host, before the request's own headers. The Client would add its own at
 * the end (libcurl's, for an empty CURLOPT_POSTFIELDS); a request's own `Content-Length: 0` is
 * kept where it stands, so the bridge hands the Client the header in Guzzle's place.
 * A body of unknown size is not empty here (Guzzle streams it), and PATCH gets none from Guzzle.
 *
 * @internal
 */
final class EmptyBodyFraming
{
    public static function apply(RequestInterface $request): RequestInterface
    {
        $method = $request->getMethod();
        if (($method !== 'POST' && $method !== 'PUT') || $request->getBody()->getSize() !== 0 || $request->hasHeader('Content-Length')) {
            return $request;
        }
        $framed = $request;
        foreach (array_keys($request->getHeaders()) as $name) {
            $framed = $framed->withoutHeader((string) $name);
        }
        $framed = $framed->withHeader('Content-Length', '0');
        foreach ($request->getHeaders() as $name => $values) {
            $framed = $framed->withHeader((string) $name, $values);
        }

        return $framed;
    }
}
