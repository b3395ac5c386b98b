<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use Psr\Http\Message\RequestInterface;
use WarmHttp\Exception\RequestException;

/**
 * Guzzle request options → WarmHttp Client options. What Guzzle's middleware or Client already
 * applied (allow_redirects, http_errors, cookies, headers, body, query, json, auth basic) never
 * reaches a handler as work to do; values Guzzle refuses are refused as Guzzle refuses them
 * (OptionChecks); what the pool cannot honour is refused by name, never ignored. docs/bridges.md
 * has the table of every option.
 *
 * @internal
 */
final class OptionMap
{
    /** Options OptionChecks or refuseUnsupported() look at (crypto_method aside: see needsChecking()). */
    private const CHECKED = [
        'on_trailers' => true, 'multiplex' => true, 'protocols' => true, 'crypto_method_max' => true,
        'cert' => true, 'ssl_key' => true, 'cert_type' => true, 'ssl_key_type' => true, 'progress' => true,
        'on_headers' => true, 'debug' => true, 'auth' => true, 'force_ip_resolve' => true,
    ];

    /**
     * @param array<string, mixed> $options
     *
     * @return array<string, mixed>
     *
     * @throws RequestException                          what the pool cannot honour
     * @throws \InvalidArgumentException                 a value Guzzle refuses, as Guzzle refuses it
     * @throws \GuzzleHttp\Exception\RequestException    a scheme outside `protocols`
     */
    public static function toWarmHttp(RequestInterface $request, array $options): array
    {
        $mapped = [];
        if (self::needsChecking($options)) {
            OptionChecks::check($request, $options);
            self::refuseUnsupported($request, $options);
            $mapped = ClientOptionMap::toWarmHttp($request, $options);
        }
        $mapped = self::timeouts($options) + self::tls($request, $options) + self::version($request) + self::streaming($options) + $mapped;
        if (isset($options['proxy'])) {
            $mapped = ProxyMap::toWarmHttp($request, $options) + $mapped;
        }
        if (isset($options['curl'])) {
            $mapped = CurlOptionMap::toWarmHttp($request, $options['curl']) + $mapped; // applied last in Guzzle too
        }

        return $mapped;
    }

    /**
     * What Guzzle's Client and Laravel put in every request (verify, timeouts, a TLS 1.2 floor,
     * decode_content...) needs no checking: one key lookup keeps the checks off the warm path
     * (OptionMap::toWarmHttp with Laravel's options: 0.6 us before the checks existed).
     *
     * @param array<string, mixed> $options
     */
    private static function needsChecking(array $options): bool
    {
        return array_intersect_key($options, self::CHECKED) !== []
            || (isset($options['crypto_method']) && $options['crypto_method'] !== \STREAM_CRYPTO_METHOD_TLSv1_2_CLIENT);
    }

    /** @param array<string, mixed> $options */
    private static function refuseUnsupported(RequestInterface $request, array $options): void
    {
        if (!empty($options['on_trailers'])) {
            throw Refusal::unsupported($request, 'on_trailers', 'the pool does not keep an answer\'s chunked trailers yet, so the callback would always see none (a Client option "keep_trailers" with the trailers on WarmHttp\\Response would make it possible)');
        }
        $multiplex = $options['multiplex'] ?? null;
        if ($multiplex === 'none' || $multiplex === 'require_eager' || $multiplex === 'require_wait') {
            // "wait" is what the pool does for every request (HTTP/2 requests wait for the
            // multiplexed connection); Guzzle leaves the option's meaning to custom handlers.
            throw Refusal::unsupported($request, 'multiplex', \sprintf('"%s": the shared pool multiplexes HTTP/2 requests on one connection, waiting for it ("wait"), and cannot opt one request out or guarantee it', $multiplex));
        }
    }

    /**
     * `timeout`, `connect_timeout`, and `read_timeout` where Guzzle applies it: to a streamed
     * body (`stream => true` goes to Guzzle's StreamHandler, which honours it; its CurlHandler,
     * which serves every other request, ignores it, so a buffered request ignores it here too).
     *
     * @param array<string, mixed> $options
     *
     * @return array<string, float>
     */
    private static function timeouts(array $options): array
    {
        $names = ($options['stream'] ?? false) === true ? ['timeout', 'connect_timeout', 'read_timeout'] : ['timeout', 'connect_timeout'];
        $mapped = [];
        foreach ($names as $name) {
            $value = $options[$name] ?? null;
            if ((\is_int($value) || \is_float($value) || is_numeric($value)) && (float) $value >= 0) {
                $mapped[$name] = (float) $value;
            }
        }

        return $mapped;
    }

    /**
     * `verify` (bool, or a CA bundle file; Guzzle's CurlHandler reads any other value as true),
     * `cert` and `ssl_key` (path or [path, passphrase]). Each distinct set gets its own Client,
     * and libcurl never lets connections of different certificates or CAs mix (PoolPartitionTest).
     *
     * @param array<string, mixed> $options
     *
     * @return array<string, mixed>
     */
    private static function tls(RequestInterface $request, array $options): array
    {
        $mapped = self::credentials($options);
        $verify = $options['verify'] ?? true;
        if ($verify === false) {
            return ['verify' => false] + $mapped;
        }
        if (!\is_string($verify)) {
            return $mapped;
        }
        OptionChecks::caBundle($verify);
        if (is_dir($verify)) {
            return ['verify' => true, 'capath' => $verify] + $mapped; // as Guzzle's CURLOPT_CAPATH
        }

        return ['verify' => true, 'cafile' => $verify] + $mapped;
    }

    /**
     * @param array<string, mixed> $options
     *
     * @return array<string, string|array{string, string}>
     */
    private static function credentials(array $options): array
    {
        $mapped = [];
        foreach (['cert', 'ssl_key'] as $name) {
            $credential = OptionChecks::credentialOf($options[$name] ?? null);
            if ($credential !== null) {
                $mapped[$name] = $credential[1] === null ? $credential[0] : $credential;
            }
        }

        return $mapped;
    }

    /**
     * Guzzle stamps every request HTTP/1.1 unless told otherwise, so only an explicit 2 is
     * taken from the request: by default the pool negotiates HTTP/2 over TLS by ALPN, which is
     * what lets many requests share one connection. Pin 1.1 with new Handler(['http_version' => '1.1']).
     *
     * On http://, Guzzle's curl (CURL_HTTP_VERSION_2_0) sends HTTP/1.1 offering `Upgrade: h2c`
     * and stays on 1.1 when the server ignores it: the Client's "2-upgrade" does the same (its
     * "2" is prior-knowledge h2c there, which an HTTP/1.1 server cannot answer at all).
     *
     * @return array<string, string>
     */
    private static function version(RequestInterface $request): array
    {
        if (!\in_array($request->getProtocolVersion(), ['2', '2.0'], true)) {
            return [];
        }

        return ['http_version' => strtolower($request->getUri()->getScheme()) === 'https' ? '2' : '2-upgrade'];
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
}
