<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use GuzzleHttp\Psr7\Utils;
use Psr\Http\Message\RequestInterface;

/**
 * A request's body framing as Guzzle's CurlFactory gives it to libcurl, where the Client's
 * own would differ:
 * - a HEAD request goes without its body (guzzlehttp/guzzle 7.13.2 on: CURLOPT_NOBODY, no
 *   Content-Length); the Client would send it;
 * - a POST or PUT with an empty body carries `Content-Length: 0` first among the request's
 *   header lines (applyMethod), so it reaches the server right after Host. The Client would
 *   add its own at the end (libcurl's, for an empty CURLOPT_POSTFIELDS); a request's own
 *   `Content-Length: 0` is kept where it stands, so the bridge hands it over in Guzzle's
 *   place. A body of unknown size is not empty here (Guzzle streams it), and PATCH gets none.
 *
 * @internal
 */
final class BodyFraming
{
    public static function apply(RequestInterface $request): RequestInterface
    {
        $method = $request->getMethod();
        if ($method === 'HEAD') {
            return $request->getBody()->getSize() === 0 ? $request : $request->withBody(Utils::streamFor(''))->withoutHeader('Content-Length')->withoutHeader('Transfer-Encoding');
        }
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
