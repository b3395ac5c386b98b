<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

/**
 * Keeps connections that carry an identity libcurl does not tell apart from being shared
 * between identities. libcurl 7.88 tells cached connections apart by a client certificate's
 * file and by an HTTP proxy's type, host and port, not by the key, its passphrase or the
 * proxy's credentials (url.c: Curl_ssl_config_matches, proxy_info_matches): a connection opened
 * with one user's proxy credentials, or a certificate's right passphrase, would carry the
 * requests of a client with other ones (PoolPartitionTest, ClientCertificateTest). NTLM and
 * Negotiate authenticate the connection itself, not each request (issue 14): libcurl 7.88
 * compares their users in ConnectionExists only when built with that scheme; the pool does not
 * rely on it and gives them the same treatment.
 *
 * The first identity of each proxy, certificate or NTLM origin in the process keeps warm
 * connections; any other gets a connection of its own per request (so its key is loaded and
 * checked, its handshake made), over HTTP/1.1 so that no other transfer multiplexes onto it
 * while it is open, closed afterwards. libcurl keeps such a connection open between an NTLM
 * handshake's legs (multi.c: multi_done spares NTLMSTATE_TYPE2 from CURLOPT_FORBID_REUSE).
 *
 * @internal
 */
final class ConnectionOwners
{
    /** CURLOPT_HTTPAUTH bits of schemes that authenticate the connection (CURLAUTH_NTLM_WB: PHP 8.2 still defines it). */
    private const CONNECTION_AUTH = \CURLAUTH_NTLM | \CURLAUTH_NTLM_WB | \CURLAUTH_NEGOTIATE;

    private const APART = [\CURLOPT_FRESH_CONNECT => true, \CURLOPT_FORBID_REUSE => true, \CURLOPT_HTTP_VERSION => \CURL_HTTP_VERSION_1_1, \CURLOPT_PIPEWAIT => false];

    /** @var array<string, string> a proxy, client certificate or NTLM origin => the identity whose connections stay warm */
    private array $owners = [];

    /**
     * Whether these options carry such an identity: the pool then asks apart() per transfer,
     * and the Client does not let a handle keep them (Client::keepsOptions).
     *
     * @param array<int, mixed> $options
     */
    public static function concern(array $options): bool
    {
        return isset($options[\CURLOPT_PROXYUSERNAME]) || isset($options[\CURLOPT_SSLCERT]) || self::authenticatesConnection($options);
    }

    /**
     * The options that keep this transfer off the connections of other identities: none for
     * the owner of each endpoint.
     *
     * @param array<int, mixed> $options
     *
     * @return array<int, mixed>
     */
    public function apart(array $options): array
    {
        $owned = true;
        if (isset($options[\CURLOPT_PROXYUSERNAME])) {
            $owned = $this->owns('proxy ' . self::text($options, \CURLOPT_PROXY), self::text($options, \CURLOPT_PROXYUSERNAME) . "\0" . self::text($options, \CURLOPT_PROXYPASSWORD));
        }
        if (isset($options[\CURLOPT_SSLCERT])) {
            $owned = $this->owns('cert ' . self::text($options, \CURLOPT_SSLCERT), self::text($options, \CURLOPT_SSLKEY) . "\0" . self::text($options, \CURLOPT_KEYPASSWD)) && $owned;
        }
        if (self::authenticatesConnection($options)) {
            $owned = $this->owns('auth ' . self::origin($options) . ' via ' . self::text($options, \CURLOPT_PROXY), self::userOf($options)) && $owned;
        }

        return $owned ? [] : self::APART;
    }

    /** @param array<int, mixed> $options */
    private static function authenticatesConnection(array $options): bool
    {
        return isset($options[\CURLOPT_HTTPAUTH]) && \is_int($options[\CURLOPT_HTTPAUTH]) && ($options[\CURLOPT_HTTPAUTH] & self::CONNECTION_AUTH) !== 0;
    }

    /** @param array<int, mixed> $options */
    private static function userOf(array $options): string
    {
        return self::text($options, \CURLOPT_USERNAME) . "\0" . self::text($options, \CURLOPT_PASSWORD) . "\0" . self::text($options, \CURLOPT_USERPWD);
    }

    /**
     * scheme://host:port of CURLOPT_URL: an NTLM identity owns connections per origin.
     *
     * @param array<int, mixed> $options
     */
    private static function origin(array $options): string
    {
        $url = parse_url(self::text($options, \CURLOPT_URL));
        $scheme = strtolower($url['scheme'] ?? '');

        return $scheme . '://' . strtolower($url['host'] ?? '') . ':' . ($url['port'] ?? TransferSpec::defaultPort($scheme));
    }

    private function owns(string $endpoint, string $identity): bool
    {
        return ($this->owners[$endpoint] ??= $identity) === $identity;
    }

    /** @param array<int, mixed> $options */
    private static function text(array $options, int $option): string
    {
        return \is_string($options[$option] ?? null) ? $options[$option] : '';
    }
}
