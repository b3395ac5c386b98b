<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

use Psr\Http\Message\RequestInterface;

/**
 * Maps a Client's options and one request to CURLOPT_* arrays, one concern per function.
 * The client part is computed once per Client; only the request part is built per request.
 *
 * @internal
 */
final class CurlOptions
{
    /** Bodies up to this size go as one string; larger or unsized ones are streamed. */
    private const INLINE_BODY_BYTES = 1048576;

    private const ACCEPT = 1;
    private const CONTENT_TYPE = 2;
    private const USER_AGENT = 4;
    private const FRAMING = 8;
    private const ACCEPT_ENCODING = 16;

    /**
     * The versions a request can ask for, where they can be told from PSR-7's default "1.1"
     * (which keeps the fast default: HTTP/2 over TLS, 1.1 with a server that offers no h2).
     */
    private const REQUESTED_VERSIONS = ['1.0' => '1.0', '2' => '2', '2.0' => '2'];

    /** Request headers whose absence curl fills in, and the framing ones curl writes itself. */
    private const ROLES = [
        'accept' => self::ACCEPT,
        'content-type' => self::CONTENT_TYPE,
        'user-agent' => self::USER_AGENT,
        'content-length' => self::FRAMING,
        'transfer-encoding' => self::FRAMING,
        'accept-encoding' => self::ACCEPT_ENCODING,
    ];

    /** @return array<int, mixed> */
    public static function forClient(Options $options): array
    {
        return self::transport($options)
            + self::tls($options)
            + self::clientCertificate($options)
            + ProxyOption::curlOptions($options->proxy(), $options->optionalList('no_proxy'))
            + self::proxyTls($options)
            + self::timeouts($options)
            + self::redirects($options)
            + self::limits($options)
            + self::decoding($options)
            + self::authentication($options)
            + self::connectionChoices($options)
            + self::debug($options);
    }

    /**
     * @param array<int, mixed> $clientOptions
     * @param string|null       $httpVersion   the Client's `http_version` option: it wins over the request's own version
     *
     * @return array<int, mixed>
     */
    public static function forRequest(RequestInterface $request, array $clientOptions, ?string $httpVersion, bool $safeToResend): array
    {
        $uri = $request->getUri();
        $https = strtolower($uri->getScheme()) === 'https';
        $curl = $clientOptions
            + [\CURLOPT_URL => (string) ($uri->getFragment() === '' ? $uri : $uri->withFragment(''))]
            + self::version($httpVersion ?? self::REQUESTED_VERSIONS[$request->getProtocolVersion()] ?? null, $https)
            + self::method($request)
            + self::body($request, $safeToResend);
        $seen = 0;
        $curl[\CURLOPT_HTTPHEADER] = self::headers($request, isset($curl[\CURLOPT_POSTFIELDS]) || isset($curl[\CURLOPT_INFILESIZE]), $seen);
        if (($seen & self::ACCEPT_ENCODING) !== 0) {
            // The request chose its codings: it gets the bytes as they came (as with Symfony
            // HttpClient and Go's net/http), so libcurl neither replaces its list nor decodes.
            unset($curl[\CURLOPT_ACCEPT_ENCODING]);
        }

        return $curl;
    }

    /** @return array<int, mixed> */
    private static function transport(Options $options): array
    {
        return [
            \CURLOPT_RETURNTRANSFER => true,
            \CURLOPT_HEADER => true,
            \CURLOPT_PROTOCOLS => \CURLPROTO_HTTP | \CURLPROTO_HTTPS,
            \CURLOPT_TCP_NODELAY => true,
            // Without it libcurl swaps the SIGPIPE handler around every transfer on every
            // curl_multi_exec: 98,000 rt_sigaction calls for 10,000 relay deliveries (strace).
            // It is not needed: on Linux libcurl 7.88 sends with MSG_NOSIGNAL, TLS records too
            // (strace), elsewhere it sets SO_NOSIGPIPE; DNS runs in curl's resolver thread.
            \CURLOPT_NOSIGNAL => true,
            // Servers and load balancers commonly drop idle connections after 60 s; retiring
            // ours sooner avoids most first-reuse failures (curl's own default is 118 s).
            \CURLOPT_MAXAGE_CONN => $options->int('max_idle_seconds') ?? 50,
        ];
    }

    /** @return array<int, mixed> */
    private static function tls(Options $options): array
    {
        $verify = $options->bool('verify');
        $tls = [
            \CURLOPT_SSL_VERIFYPEER => $verify,
            \CURLOPT_SSL_VERIFYHOST => $verify ? 2 : 0,
        ];
        $cafile = $options->string('cafile');
        if ($cafile !== null) {
            $tls[\CURLOPT_CAINFO] = $cafile;
        }

        return $tls;
    }

    /**
     * `tls_min`/`tls_max`, `capath` (libcurl keys cached connections on the CA directory as on
     * the CA file, Curl_ssl_config_matches) and `ip_resolve` (a connection is reused only by a
     * transfer whose IPRESOLVE accepts its address family: ConnectionExists, libcurl 7.88).
     *
     * @return array<int, mixed>
     */
    private static function connectionChoices(Options $options): array
    {
        $curl = TlsVersions::curlOptions($options->string('tls_min'), $options->string('tls_max'));
        $capath = $options->string('capath');
        if ($capath !== null) {
            $curl[\CURLOPT_CAPATH] = $capath;
            if (\is_string($options->proxy()) && strncasecmp((string) $options->proxy(), 'https:', 6) === 0) {
                $curl[\CURLOPT_PROXY_CAPATH] = $capath;
            }
        }
        $family = $options->string('ip_resolve');
        if ($family !== null) {
            $curl[\CURLOPT_IPRESOLVE] = $family === 'v4' ? \CURL_IPRESOLVE_V4 : \CURL_IPRESOLVE_V6;
        }

        return $curl;
    }

    /**
     * `http_auth`: libcurl answers the server's 401 challenge itself. NTLM authenticates a
     * connection, not a request: libcurl 7.88 hands an NTLM connection only to transfers with
     * the same user and password (ConnectionExists), and NTLM cannot run over HTTP/2, so such
     * a Client speaks HTTP/1.1 (its CURLOPT_HTTP_VERSION here wins over the per-request one).
     *
     * @return array<int, mixed>
     */
    private static function authentication(Options $options): array
    {
        $auth = $options->httpAuth();
        if ($auth === null) {
            return [];
        }
        $curl = [
            \CURLOPT_HTTPAUTH => $auth[0] === 'digest' ? \CURLAUTH_DIGEST : \CURLAUTH_NTLM,
            \CURLOPT_USERNAME => $auth[1],
            \CURLOPT_PASSWORD => $auth[2],
        ];
        if ($auth[0] === 'ntlm') {
            $curl += [\CURLOPT_HTTP_VERSION => \CURL_HTTP_VERSION_1_1, \CURLOPT_PIPEWAIT => false];
        }

        return $curl;
    }

    /**
     * `debug`: curl's verbose log of each transfer, written to the given stream. The watch
     * (a ReadTimeout without a limit) is there so that these transfers take the pool's
     * per-transfer path: a kept handle (TransferSpec::$profile) would keep this Client's
     * stream for the next Client with the same options, and every handle is reset after use.
     *
     * @return array<int, mixed>
     */
    private static function debug(Options $options): array
    {
        $stream = $options->debugStream();

        return $stream === null ? [] : [\CURLOPT_VERBOSE => true, \CURLOPT_STDERR => $stream, \CURLOPT_NOPROGRESS => false, \CURLOPT_XFERINFOFUNCTION => new ReadTimeout(0.0)];
    }

    /**
     * An https:// proxy is verified as the origins are, with `verify` and `cafile` (libcurl
     * keeps separate CURLOPT_PROXY_* settings for it, defaulting to the system bundle).
     *
     * @return array<int, mixed>
     */
    private static function proxyTls(Options $options): array
    {
        $proxy = $options->proxy();
        if (!\is_string($proxy) || strncasecmp($proxy, 'https:', 6) !== 0) {
            return [];
        }
        $verify = $options->bool('verify');
        $tls = [\CURLOPT_PROXY_SSL_VERIFYPEER => $verify, \CURLOPT_PROXY_SSL_VERIFYHOST => $verify ? 2 : 0];
        $cafile = $options->string('cafile');
        if ($cafile !== null) {
            $tls[\CURLOPT_PROXY_CAINFO] = $cafile;
        }

        return $tls;
    }

    /**
     * mTLS. libcurl 7.88 has one passphrase (CURLOPT_KEYPASSWD) for the key, wherever it is:
     * the `ssl_key` file's, else the one given with `cert` (a PEM holding both).
     *
     * @return array<int, mixed>
     */
    private static function clientCertificate(Options $options): array
    {
        $cert = $options->credentialOf('cert');
        $key = $options->credentialOf('ssl_key');
        $curl = [];
        if ($cert !== null) {
            $curl[\CURLOPT_SSLCERT] = $cert[0];
        }
        if ($key !== null) {
            $curl[\CURLOPT_SSLKEY] = $key[0];
        }
        $passphrase = $key[1] ?? $cert[1] ?? null;
        if ($passphrase !== null) {
            $curl[\CURLOPT_KEYPASSWD] = $passphrase;
        }
        // DER or PKCS#12 (a P12 holds the key too). The certificate's file already keeps its
        // connections apart (Curl_ssl_config_matches; CurlPool::partition for the key).
        $types = [\CURLOPT_SSLCERTTYPE => $options->string('cert_type'), \CURLOPT_SSLKEYTYPE => $options->string('ssl_key_type')];
        foreach ($types as $option => $type) {
            if ($type !== null) {
                $curl[$option] = $type;
            }
        }

        return $curl;
    }

    /** @return array<int, mixed> */
    private static function timeouts(Options $options): array
    {
        $timeouts = [
            \CURLOPT_TIMEOUT_MS => (int) round($options->float('timeout') * 1000),
            \CURLOPT_CONNECTTIMEOUT_MS => (int) round($options->float('connect_timeout') * 1000),
        ];
        $read = $options->float('read_timeout');
        $progress = $options->progress();
        if ($read > 0 || $progress !== null) {
            // Not CURLOPT_LOW_SPEED_TIME: libcurl 7.88 averages the speed over the last 5 s,
            // so a 1 s limit fired 7 s into a stall (measured). The pool gives every transfer
            // its own watch (ReadTimeout::watch), which also calls the `progress` callback:
            // libcurl has one progress function per transfer.
            $timeouts[\CURLOPT_NOPROGRESS] = false;
            $timeouts[\CURLOPT_XFERINFOFUNCTION] = new ReadTimeout($read, $progress);
        }

        return $timeouts;
    }

    /**
     * libcurl decodes as the bytes stream in, so the write callbacks (and `max_response_bytes`)
     * see decoded bytes, and memory stays bounded whatever the ratio.
     *
     * @return array<int, mixed>
     */
    private static function decoding(Options $options): array
    {
        $accept = $options->acceptEncoding();

        return $accept === null ? [] : [\CURLOPT_ACCEPT_ENCODING => $accept];
    }

    /** @return array<int, mixed> */
    private static function redirects(Options $options): array
    {
        if (!$options->bool('follow_redirects')) {
            return [\CURLOPT_FOLLOWLOCATION => false];
        }

        return [
            \CURLOPT_FOLLOWLOCATION => true,
            \CURLOPT_MAXREDIRS => $options->int('max_redirects') ?? 5,
            \CURLOPT_REDIR_PROTOCOLS => \CURLPROTO_HTTP | \CURLPROTO_HTTPS,
        ];
    }

    /** @return array<int, mixed> */
    private static function limits(Options $options): array
    {
        $max = $options->int('max_response_bytes');

        // MAXFILESIZE stops early when Content-Length announces too much; the write
        // callback set per transfer catches bodies of unannounced size.
        return $max === null ? [] : [\CURLOPT_MAXFILESIZE => $max];
    }

    /**
     * "2" on an http:// URL is h2c with prior knowledge (no Upgrade round trip, no added
     * headers): only for servers that speak cleartext HTTP/2. "2-upgrade" is what Guzzle's curl
     * does with version 2.0 there: HTTP/1.1 offering "Upgrade: h2c", staying on 1.1 when the
     * server ignores the offer (over TLS it is the default: ALPN).
     *
     * @param '1.0'|'1.1'|'2'|'2-upgrade'|string|null $httpVersion null: HTTP/2 over TLS (ALPN, falling back to 1.1), 1.1 otherwise
     *
     * @return array<int, mixed>
     */
    public static function version(?string $httpVersion, bool $https): array
    {
        return match (true) {
            $httpVersion === '1.1' => [\CURLOPT_HTTP_VERSION => \CURL_HTTP_VERSION_1_1],
            $httpVersion === '1.0' => [\CURLOPT_HTTP_VERSION => \CURL_HTTP_VERSION_1_0],
            $httpVersion === '2' && !$https => [\CURLOPT_HTTP_VERSION => \CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE, \CURLOPT_PIPEWAIT => true],
            $https => [\CURLOPT_HTTP_VERSION => \CURL_HTTP_VERSION_2TLS, \CURLOPT_PIPEWAIT => true],
            $httpVersion === '2-upgrade' => [\CURLOPT_HTTP_VERSION => \CURL_HTTP_VERSION_2_0, \CURLOPT_PIPEWAIT => true],
            default => [\CURLOPT_HTTP_VERSION => \CURL_HTTP_VERSION_1_1],
        };
    }

    /** @return array<int, mixed> */
    private static function method(RequestInterface $request): array
    {
        $size = $request->getBody()->getSize();

        return self::methodOf($request->getMethod(), $size !== 0 && ($size !== null || $request->getBody()->isReadable()));
    }

    /**
     * A GET or HEAD with a body keeps its method: CURLOPT_POSTFIELDS alone would turn it into a
     * POST. A HEAD with a body cannot use CURLOPT_NOBODY, which makes libcurl 7.88 drop the
     * body: it goes as a custom "HEAD", which the pool stops at the end of its answer's head
     * (Transfer::receiveHeadOnly), since libcurl would wait for a body there.
     *
     * @return array<int, mixed>
     */
    public static function methodOf(string $method, bool $hasBody): array
    {
        return match (true) {
            $method === 'GET' && !$hasBody => [\CURLOPT_HTTPGET => true],
            $method === 'HEAD' && !$hasBody => [\CURLOPT_NOBODY => true],
            default => [\CURLOPT_CUSTOMREQUEST => $method],
        };
    }

    /**
     * libcurl 7.88 re-sends a request by itself when a reused connection dies before any
     * response byte arrives (Curl_retry_request), even a POST the server may have processed.
     * A body fed through READFUNCTION cannot be rewound, so libcurl fails with
     * CURLE_SEND_FAIL_REWIND instead: that is how a non-idempotent request is never re-sent.
     *
     * @return array<int, mixed>
     */
    private static function body(RequestInterface $request, bool $safeToResend): array
    {
        $body = $request->getBody();
        $size = $body->getSize();
        if ($size === 0 || ($size === null && !$body->isReadable())) {
            return self::emptyBody($request, $safeToResend);
        }
        if ($body->isSeekable()) {
            $body->rewind();
        }
        if ($safeToResend && $size !== null && $size <= self::INLINE_BODY_BYTES) {
            return [\CURLOPT_POSTFIELDS => $body->getContents()];
        }

        return [
            \CURLOPT_UPLOAD => true,
            \CURLOPT_INFILESIZE => $size ?? -1,
            \CURLOPT_READFUNCTION => static fn($ch, $fd, int $length): string => $body->read($length),
        ];
    }

    /** @return array<int, mixed> */
    private static function emptyBody(RequestInterface $request, bool $safeToResend): array
    {
        // POST and PUT announce an empty body explicitly (libcurl writes Content-Length: 0);
        // GET, PATCH and the others send none, as Guzzle's curl does.
        $curl = \in_array($request->getMethod(), ['POST', 'PUT'], true) ? [\CURLOPT_POSTFIELDS => ''] : [];
        // With no body there is nothing that fails to rewind, so libcurl's silent re-send on
        // a dead reused connection cannot be stopped: such a request takes a new connection.
        if (!$safeToResend) {
            $curl[\CURLOPT_FRESH_CONNECT] = true;
        }

        return $curl;
    }

    /**
     * The request's header lines, then what keeps curl from adding its own: no Accept of any
     * type and, for a body, no "Content-Type: application/x-www-form-urlencoded" the request did
     * not carry (libcurl 7.88 adds both; "Name:" removes one), no "Expect: 100-continue" round
     * trip (an RTT for every body over 1 KiB, and only a body gets one), and a User-Agent when
     * the request has none. An
     * empty value goes as "Name;", curl's spelling for it: "Name:" would drop the header.
     *
     * @param int $seen set to the ROLES the request's own headers have
     *
     * @return list<string>
     */
    private static function headers(RequestInterface $request, bool $hasBody, int &$seen): array
    {
        $lines = [];
        foreach ($request->getHeaders() as $name => $values) {
            $role = self::ROLES[strtolower((string) $name)] ?? 0;
            if ($role === self::FRAMING && !self::keepsFraming((string) $name, $values, $hasBody, $request)) {
                continue;
            }
            $seen |= $role;
            foreach ($values as $value) {
                $lines[] = $value === '' ? $name . ';' : $name . ': ' . $value;
            }
        }
        if ($hasBody) {
            // Only a body gets curl's Expect; the empty line cost libcurl 7.88 ~1.5 k instructions
            // of every request without one, checking it against each header it writes (callgrind).
            $lines[] = 'Expect:';
        }

        return self::withoutCurlDefaults($lines, $seen, $hasBody);
    }

    /**
     * Framing is curl's, from what it really sends: with a body it writes the true length (or
     * chunks, as a request's "Transfer-Encoding: chunked" asks); without one, only the
     * "Content-Length: 0" some callers send is kept, as anything else would make the server
     * wait for a body that never comes. It is kept in the request's place also where the
     * empty body goes as CURLOPT_POSTFIELDS '' (a bodiless POST or PUT): libcurl then adds
     * none of its own, and the head is the one Guzzle's curl writes.
     *
     * @param array<string> $values
     */
    private static function keepsFraming(string $name, array $values, bool $hasBody, RequestInterface $request): bool
    {
        if (strcasecmp($name, 'Content-Length') === 0) {
            return $values === ['0'] && (!$hasBody || $request->getBody()->getSize() === 0);
        }

        return $hasBody; // Transfer-Encoding
    }

    /**
     * @param list<string> $lines
     * @param int          $seen  the ROLES the request's own headers had
     *
     * @return list<string>
     */
    private static function withoutCurlDefaults(array $lines, int $seen, bool $hasBody): array
    {
        if (($seen & self::ACCEPT) === 0) {
            $lines[] = 'Accept:';
        }
        if ($hasBody && ($seen & self::CONTENT_TYPE) === 0) {
            $lines[] = 'Content-Type:';
        }
        if (($seen & self::USER_AGENT) === 0) {
            $lines[] = UserAgent::HEADER_LINE;
        }

        return $lines;
    }
}
