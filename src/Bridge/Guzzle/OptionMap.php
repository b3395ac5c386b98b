<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use Psr\Http\Message\RequestInterface;
use WarmHttp\Exception\RequestException;

/**
 * Guzzle request options → WarmHttp Client options. What Guzzle's middleware or Client already
 * applied (allow_redirects, http_errors, cookies, headers, body, query, json, auth basic) never
 * reaches a handler as work to do; what would silently change behaviour here is refused.
 *
 * @internal
 */
final class OptionMap
{
    /** Options WarmHttp cannot honour per request: refused rather than ignored. */
    private const UNSUPPORTED = [
        'cert' => 'client certificates',
        'ssl_key' => 'client certificate keys',
        'progress' => 'progress callbacks',
        'force_ip_resolve' => 'forcing IPv4 or IPv6',
        'curl' => 'raw CURLOPT_* options (Guzzle also sets them for digest and NTLM auth)',
    ];

    /**
     * @param array<string, mixed> $options
     *
     * @return array<string, scalar|null>
     *
     * @throws RequestException
     */
    public static function toWarmHttp(RequestInterface $request, array $options): array
    {
        self::refuseUnsupported($request, $options);

        return self::timeouts($options) + self::tls($request, $options) + self::version($request) + self::streaming($options);
    }

    /** @param array<string, mixed> $options */
    private static function refuseUnsupported(RequestInterface $request, array $options): void
    {
        foreach (self::UNSUPPORTED as $name => $what) {
            if (isset($options[$name]) && $options[$name] !== [] && $options[$name] !== '') {
                throw self::refuse($request, $name, $what);
            }
        }
        if (isset($options['proxy']) && $options['proxy'] !== [] && $options['proxy'] !== self::proxyFromEnvironment()) {
            throw self::refuse($request, 'proxy', 'per-request proxies (libcurl already honours HTTP_PROXY, HTTPS_PROXY and NO_PROXY from the environment)');
        }
        // Laravel's Http sets a TLS 1.2 floor on every request; libcurl 7.88 with OpenSSL 3
        // negotiates TLS 1.3 or 1.2 with any server that offers them, so only a higher floor
        // would change what happens.
        if (isset($options['crypto_method']) && $options['crypto_method'] === \STREAM_CRYPTO_METHOD_TLSv1_3_CLIENT) {
            throw self::refuse($request, 'crypto_method', 'a TLS 1.3 floor');
        }
    }

    /**
     * What Guzzle's Client::configureDefaults() puts in `proxy` from the environment.
     *
     * @return array<string, mixed>|null
     */
    private static function proxyFromEnvironment(): ?array
    {
        $proxy = [];
        if (\PHP_SAPI === 'cli' && ($http = getenv('HTTP_PROXY')) !== false && $http !== '') {
            $proxy['http'] = $http;
        }
        if (($https = getenv('HTTPS_PROXY')) !== false && $https !== '') {
            $proxy['https'] = $https;
        }
        if (($no = getenv('NO_PROXY')) !== false && $no !== '') {
            $proxy['no'] = explode(',', str_replace(' ', '', $no));
        }

        return $proxy === [] ? null : $proxy;
    }

    /**
     * @param array<string, mixed> $options
     *
     * @return array<string, float>
     */
    private static function timeouts(array $options): array
    {
        $mapped = [];
        foreach (['timeout', 'connect_timeout'] as $name) {
            $value = $options[$name] ?? null;
            if ((\is_int($value) || \is_float($value) || is_numeric($value)) && (float) $value >= 0) {
                $mapped[$name] = (float) $value;
            }
        }

        return $mapped;
    }

    /**
     * @param array<string, mixed> $options
     *
     * @return array<string, bool|string>
     */
    private static function tls(RequestInterface $request, array $options): array
    {
        $verify = $options['verify'] ?? true;
        if ($verify === false) {
            return ['verify' => false];
        }
        if (!\is_string($verify)) {
            return [];
        }
        if (is_dir($verify)) {
            throw self::refuse($request, 'verify', \sprintf('a CA directory ("%s"); give the path of a CA bundle file', $verify));
        }

        return ['verify' => true, 'cafile' => $verify];
    }

    /**
     * Guzzle stamps every request HTTP/1.1 unless told otherwise, so only an explicit 2 is
     * taken from the request: by default the pool negotiates HTTP/2 over TLS by ALPN, which is
     * what lets many requests share one connection. Pin 1.1 with new Handler(['http_version' => '1.1']).
     *
     * @return array<string, string>
     */
    private static function version(RequestInterface $request): array
    {
        return \in_array($request->getProtocolVersion(), ['2', '2.0'], true) ? ['http_version' => '2'] : [];
    }

    /**
     * @param array<string, mixed> $options
     *
     * @return array<string, bool>
     */
    private static function streaming(array $options): array
    {
        return ($options['stream'] ?? false) === true ? ['stream' => true] : [];
    }

    private static function refuse(RequestInterface $request, string $option, string $what): RequestException
    {
        return new RequestException($request, \sprintf(
            'The Guzzle request option "%s" is not supported by WarmHttp\Bridge\Guzzle\Handler (%s): the pool it shares cannot honour it per request. Leave "%s" unset, or send this request through Guzzle\'s default handler.',
            $option,
            $what,
            $option,
        ));
    }
}
