<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Storage\Redis;

use WarmHttp\Relay\Storage\RequestBytes;
use WarmHttp\Relay\Storage\SpooledRequest;
use WarmHttp\Relay\Wire\HeaderFilter;

/**
 * A request hash read back from Redis, checked as the front checks what a caller sends: Redis
 * is written by every relay of the fleet, and by anyone else who can reach it. A hash no relay
 * could have written (a method or header that would split the request line, a header of the
 * relay's own hop, a field of the wrong type) is refused here, so it becomes a dead letter with
 * the reason, not a worker that crashes on it (and a fleet that crashes on it in turn, each
 * relay claiming it after the one before died) nor a request line forged through curl.
 * The destination is checked at each delivery by the guard, as for every request.
 *
 * @internal
 */
final class RedisEntry
{
    /** RFC 9110 5.6.2 token: a method and a header name (PCRE's JIT: php's strspn() took 20 k instructions per request here). */
    private const TOKEN = '/^[!#$%&\'*+\-.^_`|~0-9A-Za-z]+$/D';

    /** Field values hold no CR, LF or NUL: those would end the line curl writes. */
    private const UNSAFE_VALUE = "\r\n\0";

    /** RequestBytes' form of no headers: its tag, then a count of 0. */
    private static ?string $noHeaders = null;

    /** The Idempotency-Key is a field of its own, sent by Upstream::deliver. */
    private const STORED_APART = ['idempotency-key' => true];

    /**
     * @param list<mixed> $row m, u, h, b, k, a, c as RedisSpool reads them
     *
     * @throws \UnexpectedValueException saying what is wrong with it
     */
    public static function hydrate(int $id, array $row): SpooledRequest
    {
        [$method, $uri, $encoded, $body, $key, $attempts, $created] = $row + [null, null, null, null, null, null, null];
        $attempts ??= '0';
        if (!\is_string($method) || !\is_string($uri) || !\is_string($encoded) || !\is_string($key) || !\is_string($attempts) || !is_numeric($created)) {
            throw new \UnexpectedValueException('a field is missing or of the wrong type');
        }
        $headers = self::decode($encoded);
        [$names, $values] = [array_column($headers, 0), array_column($headers, 1)];
        // a few calls for the whole request, not a few per header: these checks cost the
        // worker ~20 k instructions per delivery (callgrind) before being folded together
        if ($method === '' || preg_match(self::TOKEN, $method . implode('', $names)) !== 1 || \in_array('', $names, true)) {
            throw new \UnexpectedValueException('its method or a header name is not a token');
        }
        if ($uri === '' || strpbrk($uri, self::UNSAFE_VALUE . ' ') !== false || strpbrk($key . implode('', $values), self::UNSAFE_VALUE) !== false) {
            throw new \UnexpectedValueException('its target, Idempotency-Key or a header value holds CR, LF or NUL (or the target a space)');
        }
        if (!ctype_digit($attempts) || \strlen($attempts) > 9 || !is_finite((float) $created)) {
            throw new \UnexpectedValueException('its attempts or creation time is not a number in range');
        }

        return new SpooledRequest($id, $method, $uri, HeaderFilter::forUpstream($headers, self::STORED_APART), \is_string($body) ? $body : '', $key, (int) $attempts, (float) $created);
    }

    /**
     * The headers in the front's binary form (RequestBytes); the front's filter is applied by
     * the caller (hop-by-hop, Host, Proxy-*, X-WarmHttp-*, the Idempotency-Key stored apart).
     *
     * @return list<array{string, string}>
     *
     * @throws \UnexpectedValueException
     */
    private static function decode(string $encoded): array
    {
        $empty = self::$noHeaders ??= RequestBytes::encodeHeaders([]);
        if (strncmp($encoded, $empty, \strlen($empty) - 4) !== 0) {
            throw new \UnexpectedValueException('its headers are not in the relay\'s form');
        }
        $headers = RequestBytes::decodeHeaders($encoded);
        if ($headers === [] && $encoded !== $empty) {
            throw new \UnexpectedValueException('its headers are truncated');
        }

        return $headers;
    }

    private function __construct() {}
}
