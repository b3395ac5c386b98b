<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use GuzzleHttp\Handler\HostValidator;
use Psr\Http\Message\RequestInterface;

/**
 * Guzzle's own handlers (CurlHandler, CurlMultiHandler, StreamHandler, from guzzlehttp/guzzle
 * 7.16 on) refuse a request whose URI host or Host header a handler could read as another host
 * (non-ASCII without idn_conversion, percent escapes, authority delimiters, numbers with
 * trailing dots) by throwing a RequestException before anything else happens: no on_stats,
 * nothing sent. The bridge runs that very check wherever the installed Guzzle has it, so each
 * Guzzle version refuses through this handler exactly what it refuses through its own (before
 * this, `http://bücher.example/` went out with a raw UTF-8 Host header).
 *
 * @internal
 */
final class HostCheck
{
    private static ?bool $guzzleChecks = null;

    /** @throws \GuzzleHttp\Exception\RequestException as Guzzle's handlers throw it */
    public static function assert(RequestInterface $request): void
    {
        if (self::$guzzleChecks ??= class_exists(HostValidator::class)) {
            HostValidator::assertRequestHost($request);
        }
    }
}
