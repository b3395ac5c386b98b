<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use GuzzleHttp\Utils;
use Psr\Http\Message\RequestInterface;

/**
 * Guzzle's `proxy` request option → the Client's `proxy`: a string for every request, or an
 * array with one entry per scheme and a `no` list of hosts reached directly (`['*']`: all of
 * them). The `no` list is matched here with Guzzle's own matcher, so the Client gets either one
 * proxy URL or `false`; without an entry for the request's scheme, the environment's proxy
 * applies (the Client's default), as in Guzzle's CurlHandler. Each distinct proxy gets its own
 * Client, and the pool never lets two proxies share a connection (PoolPartitionTest).
 *
 * @internal
 */
final class ProxyMap
{
    /**
     * @param array<string, mixed> $options
     *
     * @return array{proxy?: string|false}
     */
    public static function toWarmHttp(RequestInterface $request, array $options): array
    {
        $proxy = $options['proxy'] ?? null;
        if (\is_array($proxy)) {
            $proxy = self::forScheme($request, $proxy);
        }
        if ($proxy === null) {
            return [];
        }
        if ($proxy === false) {
            return ['proxy' => false];
        }
        if (!\is_string($proxy)) {
            throw Refusal::invalid($request, 'proxy', 'a proxy URL, or an array of scheme => URL with an optional "no" list', $proxy);
        }

        return ['proxy' => self::url($proxy)];
    }

    /** @param array<mixed> $proxy */
    private static function forScheme(RequestInterface $request, array $proxy): string|false|null
    {
        $uri = $request->getUri();
        $forScheme = $proxy[$uri->getScheme()] ?? null;
        if ($forScheme === null) {
            return null;
        }
        $no = $proxy['no'] ?? [];
        if (\is_string($no)) {
            $no = explode(',', str_replace(' ', '', $no));
        }
        if (\is_array($no) && $no !== [] && $uri->getHost() !== '' && Utils::isHostInNoProxy($uri->getHost(), array_values(array_filter($no, 'is_string')))) {
            return false;
        }

        return \is_string($forScheme) ? $forScheme : throw Refusal::invalid($request, 'proxy', 'a proxy URL per scheme', $forScheme);
    }

    /**
     * libcurl reads a proxy without a scheme as http:// (CURLOPT_PROXY(3)); the Client wants
     * the scheme spelled out. An empty string turns every proxy off in libcurl: false here.
     */
    private static function url(string|false $proxy): string|false
    {
        if ($proxy === false || $proxy === '') {
            return false;
        }

        return str_contains($proxy, '://') ? $proxy : 'http://' . $proxy;
    }
}
