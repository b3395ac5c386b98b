<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\UriInterface;
use WarmHttp\Exception\RequestException;
use WarmHttp\Internal\CurlPool;
use WarmHttp\Internal\MemoryStream;
use WarmHttp\Internal\Transfer;

/**
 * `follow_redirects` with `relay_sync`: the Client follows redirects itself, one hop through the
 * relay each. Curl cannot: it sends every request to the relay's URL with the destination as
 * CURLOPT_REQUEST_TARGET, so it resolved a Location against the relay's URL and sent the same
 * target again, until "too many redirects". Each hop is a sync request of its own (guarded
 * when the first one is: relay_sync_guard, --guard-sync).
 * Follows as curl does: 303 (and 301/302 after a POST) become a GET without a body;
 * Authorization, Cookie and Proxy-Authorization are not sent to another origin.
 *
 * @internal
 */
final class SyncRedirects
{
    private const STATUSES = [301, 302, 303, 307, 308];

    private const CREDENTIALS = ['Authorization', 'Cookie', 'Proxy-Authorization'];

    /**
     * A transfer that settles with the last hop's outcome; it is never started itself.
     *
     * @param \Closure(RequestInterface): Transfer $startHop
     */
    public static function follow(RequestInterface $request, Transfer $first, \Closure $startHop, int $maxRedirects): Transfer
    {
        $final = new Transfer($first->spec, $first->exchange);
        self::chain($request, $first, $startHop, $maxRedirects, $final);

        return $final;
    }

    /** @param \Closure(RequestInterface): Transfer $startHop */
    private static function chain(RequestInterface $request, Transfer $hop, \Closure $startHop, int $left, Transfer $final): void
    {
        $hop->onSettle(static function (Transfer $hop) use ($request, $startHop, $left, $final): void {
            $outcome = $hop->outcome();
            \assert($outcome !== null);
            try {
                $next = $outcome instanceof ResponseInterface && !$final->isSettled() ? self::next($request, $outcome) : null;
            } catch (\InvalidArgumentException $e) {
                $outcome = new RequestException($request, \sprintf('%s %s failed: %s', $request->getMethod(), $request->getUri(), $e->getMessage()));
                $next = null;
            }
            if ($next === null) {
                $final->settle($outcome);

                return;
            }
            if ($hop->streamedBody !== null) {
                CurlPool::get()->abort($hop); // the redirect's own body is never read
            }
            if ($left === 0) {
                $final->settle(new RequestException($request, \sprintf('%s %s failed: too many redirects (see the "max_redirects" option).', $request->getMethod(), $request->getUri())));

                return;
            }
            try {
                self::chain($next, $startHop($next), $startHop, $left - 1, $final);
            } catch (ClientExceptionInterface $e) {
                $final->settle($e);
            }
        });
    }

    /**
     * The request to send next, or null when the response is not a redirect to follow.
     *
     * @throws \InvalidArgumentException a Location that is not a URI
     */
    public static function next(RequestInterface $request, ResponseInterface $response): ?RequestInterface
    {
        $location = $response->getHeaderLine('Location');
        if (!\in_array($response->getStatusCode(), self::STATUSES, true) || $location === '') {
            return null;
        }
        $target = self::resolve($request->getUri(), $location);
        $next = $request->withUri($target);
        if (self::origin($target) !== self::origin($request->getUri())) {
            foreach (self::CREDENTIALS as $name) {
                $next = $next->withoutHeader($name);
            }
        }
        $status = $response->getStatusCode();
        $method = $request->getMethod();
        if (($status === 303 && $method !== 'HEAD') || (\in_array($status, [301, 302], true) && $method === 'POST')) {
            $next = $next->withMethod('GET')->withoutHeader('Content-Type')->withoutHeader('Content-Length')->withBody(new MemoryStream());
        }

        return $next;
    }

    /** RFC 3986 5.2, the forms a Location takes: absolute, scheme-relative, absolute path, relative path, query. */
    private static function resolve(UriInterface $base, string $location): UriInterface
    {
        $parts = parse_url($location);
        if ($parts === false) {
            throw new \InvalidArgumentException(\sprintf('The redirect\'s Location "%s" is not a URI.', substr($location, 0, 200)));
        }
        $base = $base->withFragment('');
        if (isset($parts['scheme'])) {
            $base = $base->withScheme($parts['scheme']);
        }
        if (isset($parts['host'])) {
            $base = $base->withUserInfo('')->withHost($parts['host'])->withPort($parts['port'] ?? null);
        }
        $path = $parts['path'] ?? '';
        if ($path === '' && !isset($parts['host'])) {
            return isset($parts['query']) ? $base->withQuery($parts['query']) : $base; // "?q" or "#f"
        }
        if ($path !== '' && $path[0] !== '/' && !isset($parts['host'])) {
            $basePath = $base->getPath() === '' ? '/' : $base->getPath();
            $path = substr($basePath, 0, (int) strrpos($basePath, '/') + 1) . $path;
        }

        return $base->withPath(self::withoutDots($path === '' ? '/' : $path))->withQuery($parts['query'] ?? '');
    }

    /** RFC 3986 5.2.4: "/a/b/../c/./d" is "/a/c/d". */
    private static function withoutDots(string $path): string
    {
        $out = [];
        $segments = explode('/', $path);
        foreach ($segments as $i => $segment) {
            if ($segment === '..') {
                array_pop($out);
            } elseif ($segment !== '.') {
                $out[] = $segment;
            }
            if (($segment === '..' || $segment === '.') && $i === \count($segments) - 1) {
                $out[] = ''; // "/a/b/.." is "/a/"
            }
        }
        $joined = implode('/', $out);

        return str_starts_with($joined, '/') ? $joined : '/' . $joined;
    }

    private static function origin(UriInterface $uri): string
    {
        return strtolower($uri->getScheme() . '://' . $uri->getHost()) . ':' . ($uri->getPort() ?? '');
    }
}
