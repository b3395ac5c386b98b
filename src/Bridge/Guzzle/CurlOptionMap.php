<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use Psr\Http\Message\RequestInterface;
use WarmHttp\Exception\RequestException;

/**
 * Guzzle's `curl` request option (raw CURLOPT_* => value) on a shared pool. Accepted: the ones
 * that say what a Client option says (mapped onto it, so they take effect and decide which
 * connections the request may use) and the ones the pool already sets as asked. Refused by
 * name: those that would take the pool's own callbacks, handle or connection cache (unsafe),
 * and every other one, because the Client has no option for it and ignoring it would be silent.
 *
 * @internal
 */
final class CurlOptionMap
{
    /** CURLOPT_* => Client option; the value is converted by convert(). */
    private const MAPPED = [
        \CURLOPT_TIMEOUT => 'timeout',
        \CURLOPT_TIMEOUT_MS => 'timeout',
        \CURLOPT_CONNECTTIMEOUT => 'connect_timeout',
        \CURLOPT_CONNECTTIMEOUT_MS => 'connect_timeout',
        \CURLOPT_SSL_VERIFYPEER => 'verify',
        \CURLOPT_CAINFO => 'cafile',
        \CURLOPT_PROXY => 'proxy',
        \CURLOPT_NOPROXY => 'no_proxy',
        \CURLOPT_SSLCERT => 'cert',
        \CURLOPT_SSLKEY => 'ssl_key',
        \CURLOPT_KEYPASSWD => 'passphrase', // = CURLOPT_SSLCERTPASSWD = CURLOPT_SSLKEYPASSWD
        \CURLOPT_CAPATH => 'capath',
        \CURLOPT_SSLCERTTYPE => 'cert_type',
        \CURLOPT_SSLKEYTYPE => 'ssl_key_type',
    ];

    /** Options the pool sets to these values on every transfer: asking for them changes nothing. */
    private const ALREADY = [
        \CURLOPT_NOSIGNAL => true,
        \CURLOPT_TCP_NODELAY => true,
        \CURLOPT_IPRESOLVE => \CURL_IPRESOLVE_WHATEVER,
        \CURLOPT_SSL_VERIFYHOST => 2,
    ];

    /** Options that would break the shared pool or the handler's own work, and why. */
    private const UNSAFE = [
        \CURLOPT_URL => 'the request\'s URI is the URL',
        \CURLOPT_CUSTOMREQUEST => 'the request\'s method is the method',
        \CURLOPT_POSTFIELDS => 'the request\'s body is the body',
        \CURLOPT_HTTPHEADER => 'the request\'s headers are the headers',
        \CURLOPT_NOBODY => 'the request\'s method is the method',
        \CURLOPT_UPLOAD => 'the request\'s body is the body',
        \CURLOPT_WRITEFUNCTION => 'the pool reads the answer; use "sink"',
        \CURLOPT_HEADERFUNCTION => 'the pool reads the answer; use "on_headers"',
        \CURLOPT_READFUNCTION => 'the pool sends the body; give the request a stream body',
        \CURLOPT_XFERINFOFUNCTION => 'the pool watches transfers with it (read_timeout)',
        \CURLOPT_PROGRESSFUNCTION => 'the pool watches transfers with its own progress callback',
        \CURLOPT_NOPROGRESS => 'the pool watches transfers with its own progress callback',
        \CURLOPT_SHARE => 'every request shares the pool\'s DNS cache and TLS sessions',
        \CURLOPT_FORBID_REUSE => 'it would close the shared pool\'s warm connection after the request',
        \CURLOPT_FRESH_CONNECT => 'it would open a connection that bypasses the shared pool',
        \CURLOPT_RETURNTRANSFER => 'the pool reads the answer',
        \CURLOPT_HEADER => 'the pool parses the head',
        \CURLOPT_PRIVATE => 'the pool tags its handles with it',
        \CURLOPT_FOLLOWLOCATION => 'Guzzle\'s "allow_redirects" middleware follows redirects',
        \CURLOPT_VERBOSE => 'its output goes to the process\'s stderr for every transfer on the handle',
        \CURLOPT_STDERR => 'see "debug"',
    ];

    /**
     * @return array<string, mixed> Client options; those of `curl` win, as CURLOPT_* applied last do in Guzzle
     *
     * @throws RequestException
     */
    public static function toWarmHttp(RequestInterface $request, mixed $curl): array
    {
        if (!\is_array($curl) || $curl === []) {
            return [];
        }
        $mapped = self::httpAuth($request, $curl);
        foreach ($curl as $option => $value) {
            if ($option === \CURLOPT_HTTPAUTH || ($option === \CURLOPT_USERPWD && $mapped !== [])) {
                continue;
            }
            if ($option === 'body_as_string') {
                continue; // Guzzle's own switch for how the body is handed to curl: the pool streams it
            }
            if ($option === \CURLOPT_IPRESOLVE && ($value === \CURL_IPRESOLVE_V4 || $value === \CURL_IPRESOLVE_V6)) {
                $mapped['ip_resolve'] = $value === \CURL_IPRESOLVE_V4 ? 'v4' : 'v6';
                continue;
            }
            if (\is_int($option) && isset(self::MAPPED[$option])) {
                $mapped[self::MAPPED[$option]] = self::convert($request, $option, $value);
                continue;
            }
            if (!self::already($option, $value, $curl)) {
                throw self::refuse($request, $option);
            }
        }

        return self::credentials($mapped);
    }

    /**
     * A value the pool sets anyway; VERIFYHOST 0 beside VERIFYPEER false is `verify => false`.
     *
     * @param array<mixed> $curl
     */
    private static function already(int|string $option, mixed $value, array $curl): bool
    {
        if ($option === \CURLOPT_SSL_VERIFYHOST && ($value === 0 || $value === false)) {
            return isset($curl[\CURLOPT_SSL_VERIFYPEER]) && !$curl[\CURLOPT_SSL_VERIFYPEER];
        }

        return \is_int($option) && \array_key_exists($option, self::ALREADY) && self::ALREADY[$option] == $value;
    }

    private static function convert(RequestInterface $request, int $option, mixed $value): mixed
    {
        return match ($option) {
            \CURLOPT_TIMEOUT, \CURLOPT_CONNECTTIMEOUT => is_numeric($value) ? (float) $value : throw self::refuse($request, $option),
            \CURLOPT_TIMEOUT_MS, \CURLOPT_CONNECTTIMEOUT_MS => is_numeric($value) ? $value / 1000 : throw self::refuse($request, $option),
            \CURLOPT_SSL_VERIFYPEER => (bool) $value,
            \CURLOPT_PROXY => \is_string($value) ? ($value === '' ? false : (str_contains($value, '://') ? $value : 'http://' . $value)) : throw self::refuse($request, $option),
            \CURLOPT_SSLCERTTYPE, \CURLOPT_SSLKEYTYPE => \is_string($value) ? strtoupper($value) : throw self::refuse($request, $option),
            \CURLOPT_NOPROXY => \is_string($value) ? array_values(array_filter(explode(',', str_replace(' ', '', $value)), static fn(string $host): bool => $host !== '')) : throw self::refuse($request, $option),
            default => \is_string($value) ? $value : throw self::refuse($request, $option),
        };
    }

    /**
     * Guzzle's Client turns `auth => [user, password, 'digest'|'ntlm']` into CURLOPT_HTTPAUTH
     * and CURLOPT_USERPWD "user:password": the Client's `http_auth`. Any other CURLOPT_HTTPAUTH
     * (several schemes, Negotiate, AWS SigV4) is refused by name.
     *
     * @param array<mixed> $curl
     *
     * @return array<string, mixed>
     */
    private static function httpAuth(RequestInterface $request, array $curl): array
    {
        $scheme = match ($curl[\CURLOPT_HTTPAUTH] ?? null) {
            \CURLAUTH_DIGEST => 'digest',
            \CURLAUTH_NTLM => 'ntlm',
            null => null,
            default => false,
        };
        if ($scheme === null) {
            return [];
        }
        $userPassword = $curl[\CURLOPT_USERPWD] ?? null;
        if ($scheme === false || !\is_string($userPassword)) {
            throw self::refuse($request, \CURLOPT_HTTPAUTH);
        }
        [$user, $password] = explode(':', $userPassword, 2) + [1 => ''];

        return ['http_auth' => [$scheme, $user, $password]];
    }

    /**
     * libcurl has one passphrase for the certificate's key wherever it is: it goes with the key
     * when there is one, else with the certificate.
     *
     * @param array<string, mixed> $mapped
     *
     * @return array<string, mixed>
     */
    private static function credentials(array $mapped): array
    {
        $passphrase = $mapped['passphrase'] ?? null;
        unset($mapped['passphrase']);
        if (!\is_string($passphrase)) {
            return $mapped;
        }
        $holder = isset($mapped['ssl_key']) ? 'ssl_key' : 'cert';
        if (isset($mapped[$holder])) {
            $mapped[$holder] = [$mapped[$holder], $passphrase];
        }

        return $mapped;
    }

    private static function refuse(RequestInterface $request, int|string $option): RequestException
    {
        $name = \is_int($option) ? self::name($option) : $option;
        if (\is_int($option) && isset(self::UNSAFE[$option])) {
            return Refusal::unsupported($request, 'curl', \sprintf('%s is unsafe on a shared pool (%s)', $name, self::UNSAFE[$option]));
        }
        if ($option === \CURLOPT_HTTPAUTH || $option === \CURLOPT_USERPWD) {
            return Refusal::unsupported($request, 'curl', \sprintf('%s: the Client answers one scheme, CURLAUTH_DIGEST or CURLAUTH_NTLM, with CURLOPT_USERPWD "user:password" (its "http_auth" option, as Guzzle\'s "auth" sets them); basic authentication works through Guzzle\'s "auth" option', $name));
        }

        return Refusal::unsupported($request, 'curl', \sprintf(
            '%s (or its value) has no WarmHttp Client option, and the handler does not ignore options silently; accepted: %s, and %s as the pool already sets them',
            $name,
            implode(', ', array_map(self::name(...), array_keys(self::MAPPED))),
            implode(', ', array_map(self::name(...), array_keys(self::ALREADY))),
        ));
    }

    /** CURLOPT_* name of a value (only on a refusal: the lookup walks every curl constant). */
    private static function name(int $option): string
    {
        foreach (get_defined_constants(true)['curl'] ?? [] as $name => $value) {
            if ($value === $option && str_starts_with($name, 'CURLOPT_')) {
                return $name;
            }
        }

        return 'cURL option ' . $option;
    }
}
