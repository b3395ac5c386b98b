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
    /** RFC 9110 5.6.2 token: a method and a header name. */
    private const TOKEN = '/^[!#$%&\'*+\-.^_`|~0-9A-Za-z]+$/D';

    /** Field values hold no CR, LF or NUL: those would end the line curl writes. */
    private const UNSAFE_VALUE = "\r\n\0";

    /**
     * @param list<mixed> $row m, u, h, b, k, a, c as RedisSpool reads them
     *
     * @throws \UnexpectedValueException saying what is wrong with it
     */
    public static function hydrate(int $id, array $row): SpooledRequest
    {
        [$method, $uri, $headers, $body, $key, $attempts, $created] = array_map(static fn(mixed $v): ?string => \is_string($v) ? $v : null, $row + array_fill(0, 7, null));
        if ($method === null || preg_match(self::TOKEN, $method) !== 1) {
            throw new \UnexpectedValueException('its method is missing or not a token');
        }
        if ($uri === null || $uri === '' || strpbrk($uri, self::UNSAFE_VALUE . ' ') !== false) {
            throw new \UnexpectedValueException('its target is missing or holds a space or control character');
        }
        if ($key === null || strpbrk($key, self::UNSAFE_VALUE) !== false) {
            throw new \UnexpectedValueException('its Idempotency-Key is missing or holds CR, LF or NUL');
        }
        if (preg_match('/^\d{1,9}$/D', $attempts ?? '0') !== 1 || !is_numeric($created ?? '') || !is_finite((float) $created)) {
            throw new \UnexpectedValueException('its attempts or creation time is not a number in range');
        }

        return new SpooledRequest($id, $method, $uri, self::headers($headers), $body ?? '', $key, (int) $attempts, (float) $created);
    }

    /**
     * The headers as the front stored them (RequestBytes' binary form), without what the front
     * drops (hop-by-hop, Host, Proxy-*, X-WarmHttp-*, the Idempotency-Key stored apart).
     *
     * @return list<array{string, string}>
     *
     * @throws \UnexpectedValueException
     */
    private static function headers(?string $encoded): array
    {
        $empty = RequestBytes::encodeHeaders([]);
        if ($encoded === null || !str_starts_with($encoded, substr($empty, 0, -4))) {
            throw new \UnexpectedValueException('its headers are missing or not in the relay\'s form');
        }
        $headers = RequestBytes::decodeHeaders($encoded);
        if ($headers === [] && $encoded !== $empty) {
            throw new \UnexpectedValueException('its headers are truncated');
        }
        foreach ($headers as [$name, $value]) {
            if (preg_match(self::TOKEN, $name) !== 1 || strpbrk($value, self::UNSAFE_VALUE) !== false) {
                throw new \UnexpectedValueException('a header name is not a token, or a value holds CR, LF or NUL');
            }
        }

        return HeaderFilter::forUpstream($headers, ['idempotency-key' => true]);
    }

    private function __construct() {}
}
