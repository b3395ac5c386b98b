<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use Psr\Http\Message\RequestInterface;

/**
 * `crypto_method` (the lowest TLS version) and `crypto_method_max` (the highest), checked as
 * Guzzle's CurlFactory checks them, same messages. Which values the pool can honour is
 * OptionMap's decision; this only refuses what Guzzle refuses.
 *
 * @internal
 */
final class TlsRange
{
    /** @param array<string, mixed> $options */
    public static function check(RequestInterface $request, array $options): void
    {
        $min = $options['crypto_method'] ?? null;
        $max = $options['crypto_method_max'] ?? null;
        if ($min === null && $max === null) {
            return;
        }
        $isHttp2 = \in_array($request->getProtocolVersion(), ['2', '2.0'], true);
        if ($isHttp2 && $max !== null && self::ordinal('crypto_method_max', $max) < 12) {
            throw new \InvalidArgumentException('Invalid crypto_method_max request option: HTTP/2 requires TLS 1.2 or higher');
        }
        if ($min !== null && $max !== null && self::ordinal('crypto_method_max', $max) < self::ordinal('crypto_method', $min)) {
            throw new \InvalidArgumentException('Invalid crypto_method_max request option: maximum TLS version must be greater than or equal to crypto_method');
        }
        if ($min !== null) {
            self::ordinal('crypto_method', $min);
        }
        if ($max !== null) {
            self::ordinal('crypto_method_max', $max);
        }
    }

    /** 10 for TLS 1.0 ... 13 for TLS 1.3, from PHP's STREAM_CRYPTO_METHOD_TLSv1_*_CLIENT. */
    public static function ordinal(string $option, mixed $value): int
    {
        return match ($value) {
            \STREAM_CRYPTO_METHOD_TLSv1_0_CLIENT => 10,
            \STREAM_CRYPTO_METHOD_TLSv1_1_CLIENT => 11,
            \STREAM_CRYPTO_METHOD_TLSv1_2_CLIENT => 12,
            \STREAM_CRYPTO_METHOD_TLSv1_3_CLIENT => 13,
            default => throw new \InvalidArgumentException(\sprintf('Invalid %s request option: unknown version provided', $option)),
        };
    }
}
