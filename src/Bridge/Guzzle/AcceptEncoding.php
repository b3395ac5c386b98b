<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use Psr\Http\Message\RequestInterface;

/**
 * A request's Accept-Encoding, narrowed to what this handler can decode. Guzzle's CurlHandler
 * hands the header to libcurl, which decodes br and zstd too (7.88 here, built with both);
 * the pool's transfers are not decoded by libcurl and PHP has no brotli or zstd decoder without
 * extensions. Asking a server for br that could not be decoded would fail a request Guzzle
 * serves, so br and zstd are taken out and the server picks among the rest (`Accept-Encoding:
 * gzip, deflate, br` copied from a browser still gets gzip). A `stream` request is left alone:
 * Guzzle's StreamHandler sends the header as given and passes a br body through undecoded.
 *
 * @internal
 */
final class AcceptEncoding
{
    private const NOT_DECODABLE = ['br', 'zstd'];

    /** @param array<string, mixed> $options */
    public static function narrow(RequestInterface $request, array $options): RequestInterface
    {
        if (!ContentDecoding::enabled($options) || ($options['stream'] ?? false) === true || !$request->hasHeader('Accept-Encoding')) {
            return $request;
        }
        $offered = explode(',', $request->getHeaderLine('Accept-Encoding'));
        $kept = array_values(array_filter($offered, self::decodable(...)));
        if (\count($kept) === \count($offered)) {
            return $request;
        }

        return $kept === [] ? $request->withoutHeader('Accept-Encoding') : $request->withHeader('Accept-Encoding', implode(', ', array_map(trim(...), $kept)));
    }

    /** An element such as " br;q=0.9" */
    private static function decodable(string $element): bool
    {
        $coding = strtolower(trim(explode(';', $element, 2)[0]));

        return !\in_array($coding, self::NOT_DECODABLE, true);
    }
}
