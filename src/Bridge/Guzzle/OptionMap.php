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
    /**
     * Options the Client has no capability for yet, and the Client option that would make them
     * possible (docs/bridges.md).
     */
    private const NEEDS_CLIENT_OPTION = [
        'debug' => 'curl\'s verbose log of one transfer needs a Client option "debug" (CURLOPT_VERBOSE and CURLOPT_STDERR per transfer), which WarmHttp does not have yet',
        'on_trailers' => 'the pool does not keep an answer\'s chunked trailers yet, so the callback would always see none (a Client option "keep_trailers" with the trailers on WarmHttp\\Response would make it possible)',
        'progress' => 'the pool has no per-request progress callback yet (a Client option "progress" on CURLOPT_XFERINFOFUNCTION would make it possible)',
    ];

    /** Options OptionChecks or refuseUnsupported() look at (crypto_method aside: see needsChecking()). */
    private const CHECKED = [
        'on_trailers' => true, 'multiplex' => true, 'protocols' => true, 'crypto_method_max' => true,
        'cert' => true, 'ssl_key' => true, 'cert_type' => true, 'ssl_key_type' => true, 'progress' => true,
        'on_headers' => true, 'debug' => true, 'auth' => true, 'force_ip_resolve' => true,
    ];

    /**
     * Guzzle's Client turns `auth => [user, pass, 'digest'|'ntlm']` into CURLOPT_HTTPAUTH; the
     * Client has no option for libcurl's HTTP authentication schemes yet.
     */
    private const AUTH_SCHEMES = ['digest', 'ntlm'];

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
        if (self::needsChecking($options)) {
            OptionChecks::check($request, $options);
            self::refuseUnsupported($request, $options);
        }
        $mapped = self::timeouts($options) + self::tls($request, $options) + self::version($request) + self::streaming($options);
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
        foreach (self::NEEDS_CLIENT_OPTION as $name => $why) {
            if (!empty($options[$name])) {
                throw Refusal::unsupported($request, $name, $why);
            }
        }
        $auth = $options['auth'] ?? null;
        if (\is_array($auth) && \is_string($auth[2] ?? null) && \in_array(strtolower($auth[2]), self::AUTH_SCHEMES, true)) {
            throw Refusal::unsupported($request, 'auth', \sprintf('%s authentication needs a Client option "http_auth" (CURLOPT_HTTPAUTH), which WarmHttp does not have yet; basic authentication works', $auth[2]));
        }
        $multiplex = $options['multiplex'] ?? null;
        if ($multiplex === 'none' || $multiplex === 'require_eager' || $multiplex === 'require_wait') {
            // "wait" is what the pool does for every request (HTTP/2 requests wait for the
            // multiplexed connection); Guzzle leaves the option's meaning to custom handlers.
            throw Refusal::unsupported($request, 'multiplex', \sprintf('"%s": the shared pool multiplexes HTTP/2 requests on one connection, waiting for it ("wait"), and cannot opt one request out or guarantee it', $multiplex));
        }
        self::refuseIpResolve($request, $options['force_ip_resolve'] ?? null);
        self::refuseTlsRange($request, $options);
        self::refuseFileTypes($request, $options);
    }

    /**
     * "v4"/"v6" (anything else Guzzle ignores, and so does this). Honoured only where it changes
     * nothing: a host that is an address of that family.
     */
    private static function refuseIpResolve(RequestInterface $request, mixed $family): void
    {
        if ($family !== 'v4' && $family !== 'v6') {
            return;
        }
        $host = trim($request->getUri()->getHost(), '[]');
        $flag = $family === 'v4' ? \FILTER_FLAG_IPV4 : \FILTER_FLAG_IPV6;
        if (filter_var($host, \FILTER_VALIDATE_IP, $flag) === false) {
            throw Refusal::unsupported($request, 'force_ip_resolve', 'choosing IPv4 or IPv6 for a host name needs a Client option for CURLOPT_IPRESOLVE, which WarmHttp does not have yet');
        }
    }

    /**
     * Laravel's Http sets a TLS 1.2 floor on every request; libcurl 7.88 with OpenSSL 3
     * negotiates TLS 1.3 or 1.2 with any server that offers them (OpenSSL 3's default security
     * level already refuses 1.0 and 1.1), so a floor up to 1.2 and a ceiling of 1.3 change
     * nothing. A 1.3 floor or a lower ceiling would, and the Client has no option for them.
     *
     * @param array<string, mixed> $options
     */
    private static function refuseTlsRange(RequestInterface $request, array $options): void
    {
        if (isset($options['crypto_method']) && TlsRange::ordinal('crypto_method', $options['crypto_method']) > 12) {
            throw Refusal::unsupported($request, 'crypto_method', 'a TLS 1.3 floor needs a Client option for CURLOPT_SSLVERSION, which WarmHttp does not have yet');
        }
        if (isset($options['crypto_method_max']) && TlsRange::ordinal('crypto_method_max', $options['crypto_method_max']) < 13) {
            throw Refusal::unsupported($request, 'crypto_method_max', 'a TLS ceiling needs a Client option for CURLOPT_SSLVERSION\'s maximum, which WarmHttp does not have yet');
        }
    }

    /**
     * The Client reads certificates and keys as PEM; Guzzle would pass DER and P12 on.
     *
     * @param array<string, mixed> $options
     */
    private static function refuseFileTypes(RequestInterface $request, array $options): void
    {
        foreach (['cert_type' => 'cert', 'ssl_key_type' => 'ssl_key'] as $typeOption => $fileOption) {
            $type = $options[$typeOption] ?? null;
            $path = OptionChecks::credentialOf($options[$fileOption] ?? null)[0] ?? '';
            $extension = strtoupper(pathinfo($path, \PATHINFO_EXTENSION));
            if (($type !== null && strtoupper((string) (\is_scalar($type) ? $type : '')) !== 'PEM') || ($type === null && \in_array($extension, ['DER', 'P12'], true))) {
                throw Refusal::unsupported($request, $typeOption, 'the Client reads certificates and keys as PEM only; convert with openssl (e.g. openssl pkcs12 -in cert.p12 -out cert.pem)');
            }
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
            throw Refusal::unsupported($request, 'verify', \sprintf('a CA directory ("%s") needs a Client option for CURLOPT_CAPATH; give the path of a CA bundle file', $verify));
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
