<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use GuzzleHttp\Utils;
use Psr\Http\Message\RequestInterface;
use WarmHttp\Exception\RequestException;

/**
 * The Guzzle request options that need a Client option of their own (issue 14): `debug`,
 * `progress`, digest and NTLM `auth`, `force_ip_resolve`, a TLS 1.3 floor or a ceiling
 * (`crypto_method`, `crypto_method_max`), `cert_type` and `ssl_key_type` (also as Guzzle
 * infers them from a .der or .p12 certificate). Each distinct set gets a Client of its own
 * (ClientCache); `debug` and `progress` a new one per request.
 *
 * @internal
 */
final class ClientOptionMap
{
    private const TLS_VERSIONS = [10 => '1.0', 11 => '1.1', 12 => '1.2', 13 => '1.3'];

    /**
     * @param array<string, mixed> $options checked by OptionChecks already
     *
     * @return array<string, mixed>
     *
     * @throws RequestException a file type the Client cannot read
     */
    public static function toWarmHttp(RequestInterface $request, array $options): array
    {
        $mapped = self::tlsRange($options) + self::fileTypes($request, $options);
        if (!empty($options['debug'])) {
            $mapped['debug'] = Utils::debugResource($options['debug']); // true: STDOUT, as Guzzle writes it
        }
        if (isset($options['progress'])) {
            $mapped['progress'] = $options['progress'];
        }
        $family = $options['force_ip_resolve'] ?? null;
        if ($family === 'v4' || $family === 'v6') {
            $mapped['ip_resolve'] = $family; // anything else Guzzle ignores, and so does this
        }
        $auth = self::httpAuth($options['auth'] ?? null);

        return $auth === null ? $mapped : ['http_auth' => $auth] + $mapped;
    }

    /**
     * Guzzle's `auth => [user, password, 'digest'|'ntlm']` (its Client also turns it into
     * CURLOPT_HTTPAUTH and CURLOPT_USERPWD: CurlOptionMap maps those to the same value).
     *
     * @return array{'digest'|'ntlm', string, string}|null
     */
    public static function httpAuth(mixed $auth): ?array
    {
        if (!\is_array($auth) || !\is_string($auth[2] ?? null)) {
            return null;
        }
        $scheme = strtolower($auth[2]);
        if ($scheme !== 'digest' && $scheme !== 'ntlm') {
            return null;
        }

        return [$scheme, self::text($auth[0] ?? ''), self::text($auth[1] ?? '')];
    }

    /**
     * A floor up to TLS 1.2 and a ceiling of 1.3 change nothing (libcurl 7.88 with OpenSSL 3
     * negotiates 1.3 or 1.2 with any server that offers them, and OpenSSL 3's default security
     * level refuses 1.0 and 1.1): Laravel's TLS 1.2 floor on every request keeps the shared
     * Client. A 1.3 floor or a lower ceiling become `tls_min` / `tls_max`.
     *
     * @param array<string, mixed> $options
     *
     * @return array<string, string>
     */
    private static function tlsRange(array $options): array
    {
        $mapped = [];
        if (isset($options['crypto_method']) && ($floor = TlsRange::ordinal('crypto_method', $options['crypto_method'])) > 12) {
            $mapped['tls_min'] = self::TLS_VERSIONS[$floor];
        }
        if (isset($options['crypto_method_max']) && ($ceiling = TlsRange::ordinal('crypto_method_max', $options['crypto_method_max'])) < 13) {
            $mapped['tls_max'] = self::TLS_VERSIONS[$ceiling];
        }

        return $mapped;
    }

    /**
     * Guzzle upper-cases the type and passes it on; without `cert_type` it takes DER or P12
     * from the certificate's extension. The Client reads PEM, DER and P12 certificates and
     * PEM or DER keys; an engine or provider ("ENG", "PROV") is refused by name.
     *
     * @param array<string, mixed> $options
     *
     * @return array<string, string>
     *
     * @throws RequestException
     */
    private static function fileTypes(RequestInterface $request, array $options): array
    {
        $mapped = [];
        $types = ['cert_type' => ['PEM', 'DER', 'P12'], 'ssl_key_type' => ['PEM', 'DER']];
        foreach ($types as $name => $readable) {
            $type = $options[$name] ?? null;
            if ($type === null && $name === 'cert_type') {
                $type = self::typeFromExtension($options['cert'] ?? null);
            }
            if ($type === null) {
                continue;
            }
            $type = strtoupper(self::text($type));
            if (!\in_array($type, $readable, true)) {
                throw Refusal::unsupported($request, $name, \sprintf('the Client reads %s files only, not "%s"', implode(', ', $readable), $type));
            }
            $mapped[$name] = $type;
        }

        return $mapped;
    }

    private static function typeFromExtension(mixed $cert): ?string
    {
        $path = OptionChecks::credentialOf($cert)[0] ?? '';
        $extension = strtoupper(pathinfo($path, \PATHINFO_EXTENSION));

        return $extension === 'DER' || $extension === 'P12' ? $extension : null;
    }

    private static function text(mixed $value): string
    {
        return \is_scalar($value) ? (string) $value : '';
    }
}
