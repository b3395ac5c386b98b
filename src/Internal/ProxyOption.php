<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

use WarmHttp\Exception\InvalidOptionException;

/**
 * The `proxy` and `no_proxy` options, checked on construction and mapped to CURLOPT_PROXY and
 * CURLOPT_NOPROXY. Left unset, libcurl reads http_proxy, https_proxy, all_proxy and no_proxy
 * from the environment by itself; set, they replace the environment.
 *
 * @internal
 */
final class ProxyOption
{
    private const SCHEMES = ['http', 'https', 'socks4', 'socks4a', 'socks5', 'socks5h'];

    public static function check(string $name, mixed $value): string|false
    {
        if ($value === false) {
            return false;
        }
        $expected = 'a proxy URL such as "http://user:pass@proxy.internal:3128" or "socks5h://127.0.0.1:1080", false for no proxy, or null for the environment\'s';
        if (!\is_string($value)) {
            throw Options::wrong($name, $expected, $value);
        }
        $parts = parse_url($value);
        $scheme = \is_array($parts) ? strtolower($parts['scheme'] ?? '') : '';
        if (!\is_array($parts) || !isset($parts['host']) || !\in_array($scheme, self::SCHEMES, true)) {
            throw new InvalidOptionException(\sprintf(
                'Option "%s" must be %s; "%s" is not one (the scheme must be one of %s).',
                $name,
                $expected,
                self::withoutPassword($value),
                implode(', ', self::SCHEMES),
            ));
        }

        return $value;
    }

    /**
     * Host names, domains (which cover their subdomains), IP addresses or CIDR ranges, as
     * libcurl's no_proxy takes them; "*" for every host.
     *
     * @return list<string>
     */
    public static function checkNoProxy(string $name, mixed $value): array
    {
        $expected = 'a list of hosts such as ["localhost", ".internal", "10.0.0.0/8"]';
        if (!\is_array($value) || !array_is_list($value)) {
            throw Options::wrong($name, $expected, $value);
        }
        foreach ($value as $host) {
            if (!\is_string($host) || preg_match('/^[A-Za-z0-9.*:\[\]\/_-]+$/D', $host) !== 1) {
                throw new InvalidOptionException(\sprintf('Option "%s" must be %s; %s is not a host.', $name, $expected, \is_string($host) ? '"' . $host . '"' : get_debug_type($host)));
            }
        }

        return $value;
    }

    /**
     * CURLOPT_PROXY and CURLOPT_NOPROXY for the options. An explicit proxy brings its own
     * exceptions: the environment's no_proxy does not apply to it.
     *
     * @param list<string>|null $noProxy
     *
     * @return array<int, mixed>
     */
    public static function curlOptions(string|false|null $proxy, ?array $noProxy): array
    {
        return match (true) {
            // "" turns off every proxy, those of the environment included (CURLOPT_PROXY(3)).
            $proxy === false => [\CURLOPT_PROXY => ''],
            \is_string($proxy) => self::explicit($proxy) + [\CURLOPT_NOPROXY => implode(',', $noProxy ?? [])],
            $noProxy !== null => [\CURLOPT_NOPROXY => implode(',', $noProxy)],
            self::environmentHasProxy() => [],
            // No proxy in the environment: said once per Client, so libcurl does not look for
            // one in the environment on every request (curl_getenv, ~1.8 k instructions each).
            default => [\CURLOPT_PROXY => '', \CURLOPT_NOPROXY => ''],
        };
    }

    /** The variables libcurl 7.88 reads for a proxy (it ignores an upper-case HTTP_PROXY: CGI). */
    private static function environmentHasProxy(): bool
    {
        foreach (['http_proxy', 'https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY'] as $name) {
            if ((string) getenv($name) !== '') {
                return true;
            }
        }

        return false;
    }

    /**
     * An HTTP proxy's credentials go apart from its URL, in CURLOPT_PROXYUSERNAME/PASSWORD: the
     * pool reads them there to keep tunnels of different users apart (CurlPool::partition).
     * A SOCKS proxy's stay in the URL: libcurl 7.88 compares those itself.
     *
     * @return array<int, string>
     */
    private static function explicit(string $proxy): array
    {
        $parts = parse_url($proxy);
        $scheme = strtolower(\is_array($parts) ? $parts['scheme'] ?? '' : '');
        if (!\is_array($parts) || !isset($parts['user']) || !\in_array($scheme, ['http', 'https'], true)) {
            return [\CURLOPT_PROXY => $proxy];
        }
        $host = $parts['host'] ?? '';

        return [
            \CURLOPT_PROXY => $scheme . '://' . $host . (isset($parts['port']) ? ':' . $parts['port'] : ''),
            \CURLOPT_PROXYUSERNAME => rawurldecode($parts['user']),
            \CURLOPT_PROXYPASSWORD => rawurldecode($parts['pass'] ?? ''),
        ];
    }

    /** The URL as an error message may show it. */
    private static function withoutPassword(string $url): string
    {
        return (string) preg_replace('#//([^:/@]*):[^@/]*@#', '//$1:***@', $url);
    }
}
