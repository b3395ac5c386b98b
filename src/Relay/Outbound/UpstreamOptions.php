<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Outbound;

use WarmHttp\Internal\CurlOptions;

/**
 * Curl options for one outgoing request of the relay, straight from the method, headers and
 * body it received: no PSR-7 round trip (building and reading back a Request with its body
 * stream was 12% of the delivery worker's CPU).
 *
 * @internal
 */
final class UpstreamOptions
{
    /**
     * @param list<array{string, string}> $headers filtered for upstream
     * @param bool                        $resendable the request may be sent twice (a delivery
     *                                                carries its Idempotency-Key; a sync request may not)
     * @param array<int, mixed>           $clientOptions
     *
     * @return array<int, mixed>
     */
    public static function build(string $method, string $url, array $headers, string $body, bool $resendable, array $clientOptions): array
    {
        return self::onBase(self::base($method, $url, $body !== '', $clientOptions), $method, $url, $headers, $body, $resendable);
    }

    /**
     * What build() makes of the client options, the method and the URL's scheme: the same for
     * every request with one caller's settings, method and scheme, so Upstream keeps it and
     * adds only the request's own (the URL in its place, the body, the header lines).
     *
     * @param array<int, mixed> $clientOptions
     *
     * @return array<int, mixed>
     */
    public static function base(string $method, string $url, bool $bodyGiven, array $clientOptions): array
    {
        return $clientOptions
            + [\CURLOPT_URL => $url]
            + CurlOptions::version(null, strncasecmp($url, 'https:', 6) === 0)
            + CurlOptions::methodOf($method, $bodyGiven);
    }

    /**
     * build() from a base() made for this method, scheme and body presence.
     *
     * @param array<int, mixed>           $base
     * @param list<array{string, string}> $headers filtered for upstream
     *
     * @return array<int, mixed>
     */
    public static function onBase(array $base, string $method, string $url, array $headers, string $body, bool $resendable): array
    {
        $hasBody = $body !== '' || self::announcesBody($method);
        $curl = $base;
        $curl[\CURLOPT_URL] = $url; // in base()'s place for it (client options carry no URL)
        if ($hasBody) {
            $curl = self::body($body, $resendable) + $curl;
        } elseif (!$resendable) {
            // No body means nothing that fails to rewind: libcurl's silent re-send on a dead
            // reused connection cannot be stopped, so such a request takes a new connection.
            $curl[\CURLOPT_FRESH_CONNECT] = true;
        }
        $curl[\CURLOPT_HTTPHEADER] = self::headerLines($headers, $hasBody);

        return $curl;
    }

    /** A method whose request has a body even when it is empty (curl then sends a Content-Length: 0). */
    public static function announcesBody(string $method): bool
    {
        return $method === 'POST' || $method === 'PUT' || $method === 'PATCH';
    }

    /**
     * Set once per relay process: no proxy, whatever the environment says. libcurl reads
     * http_proxy, HTTPS_PROXY and ALL_PROXY by itself, and a proxy resolves the host on its own,
     * past the guard's check and pin. Until the relay has a proxy option of its own, none.
     *
     * @return array<int, mixed>
     */
    public static function direct(): array
    {
        return [\CURLOPT_PROXY => '', \CURLOPT_NOPROXY => '*'];
    }

    /**
     * Connects to the checked address, whatever host and port curl reads in the URL: an empty
     * host and port in CURLOPT_CONNECT_TO match every name, so one that curl derives by itself
     * (IDNA, URL decoding, a parser difference) still reaches only that address. TLS still
     * verifies the certificate against the URL's host. CURLOPT_RESOLVE, used before, pinned
     * only the exact name it was given, and curl resolved any other spelling itself.
     *
     * @param array<int, mixed> $curl
     *
     * @return array<int, mixed>
     */
    public static function pinned(array $curl, string $address, int $port): array
    {
        $curl[\CURLOPT_CONNECT_TO] = [\sprintf('::%s:%d', str_contains($address, ':') ? '[' . $address . ']' : $address, $port)];

        return $curl;
    }

    /**
     * An inline body is re-sent by libcurl 7.88 by itself when a reused connection dies before
     * the answer; one fed through READFUNCTION cannot be rewound, so a request that must not
     * go twice fails with CURLE_SEND_FAIL_REWIND instead (as the Client does).
     *
     * @return array<int, mixed>
     */
    private static function body(string $body, bool $resendable): array
    {
        if ($resendable) {
            return [\CURLOPT_POSTFIELDS => $body];
        }
        $offset = 0;

        return [
            \CURLOPT_UPLOAD => true,
            \CURLOPT_INFILESIZE => \strlen($body),
            \CURLOPT_READFUNCTION => static function ($ch, $fd, int $length) use ($body, &$offset): string {
                $chunk = substr($body, $offset, $length);
                $offset += \strlen($chunk);

                return $chunk;
            },
        ];
    }

    /**
     * The caller's header lines as they came, then what keeps libcurl from adding its own (as
     * the Client does, CurlOptions::headers): no Accept of any type and, for a body, no
     * "Content-Type: application/x-www-form-urlencoded" the caller did not send. An empty value
     * goes as "Name;", curl's spelling for it: "Name:" would drop the header.
     *
     * @param list<array{string, string}> $headers
     *
     * @return list<string>
     */
    public static function headerLines(array $headers, bool $hasBody): array
    {
        $lines = [];
        $hasAccept = $hasType = $hasExpect = false;
        foreach ($headers as [$name, $value]) {
            // One strtolower() and plain compares: three or four strcasecmp() calls a line cost more.
            $lower = strtolower($name);
            if ($lower === 'accept') {
                $hasAccept = true;
            } elseif ($lower === 'content-type') {
                $hasType = true;
            } elseif ($lower === 'expect') {
                $hasExpect = true;
            } elseif ($hasBody && $lower === 'content-length') {
                continue; // curl writes the true length of what it sends
            }
            $lines[] = $value === '' ? $name . ';' : $name . ': ' . $value;
        }
        if (!$hasAccept) {
            $lines[] = 'Accept:';
        }
        if ($hasBody && !$hasType) {
            $lines[] = 'Content-Type:';
        }
        if (!$hasExpect) {
            $lines[] = 'Expect:'; // no 100-continue round trip the caller did not ask for
        }

        return $lines;
    }
}
