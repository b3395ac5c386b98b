<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use GuzzleHttp\Exception\ConnectException;
use GuzzleHttp\Exception\RequestException;
use GuzzleHttp\Handler\HostValidator;
use Psr\Http\Message\RequestInterface;

/**
 * What Guzzle's cURL handlers refuse about the request itself, before any option and before
 * anything is sent (no on_stats), thrown by the handler call as theirs is:
 * - hosts a handler could read as another host (guzzlehttp/guzzle 7.16's HostValidator:
 *   non-ASCII without idn_conversion, percent escapes, authority delimiters, numbers with
 *   trailing dots), by running that very check wherever the installed Guzzle has it, so each
 *   Guzzle version refuses through this handler what it refuses through its own (before this,
 *   `http://bücher.example/` went out with a raw UTF-8 Host header);
 * - a URI without scheme or host, a scheme other than http/https, and a protocol version other
 *   than 1.0, 1.1 and 2, with CurlFactory's words (the Client would send "3" as 1.1).
 *
 * @internal
 */
final class RequestChecks
{
    private const NO_ABSOLUTE_URI = 'URI must include a scheme and host. Use an absolute URI, a network-path reference starting with //, or configure a base_uri.';

    /** A process talks to a handful of hosts; a bound keeps a crawler's from growing it. */
    private const MAX_PASSED_HOSTS = 256;

    private static ?bool $hostValidator = null;

    /** @var array<string, true> URI host and Host header values HostValidator passed */
    private static array $passedHosts = [];

    /** @throws RequestException|ConnectException as Guzzle's handlers throw them */
    public static function assert(RequestInterface $request): void
    {
        $uri = $request->getUri();
        if (self::$hostValidator ??= class_exists(HostValidator::class)) {
            self::checkHost($request, $uri->getHost());
        }
        $scheme = $uri->getScheme();
        if ($scheme !== 'http' && $scheme !== 'https') {
            throw new RequestException($scheme === '' ? self::NO_ABSOLUTE_URI : \sprintf("The scheme '%s' is not supported.", $scheme), $request);
        }
        $version = $request->getProtocolVersion();
        if ($version !== '1.1' && $version !== '1.0' && $version !== '2' && $version !== '2.0' && $version !== '') {
            throw new ConnectException(\sprintf('HTTP/%s is not supported by the cURL handler.', $version), $request);
        }
        if ($uri->getHost() === '') {
            throw new RequestException(self::NO_ABSOLUTE_URI, $request);
        }
    }

    /**
     * HostValidator's verdict depends on the URI host and the Host header values only: a pair
     * it passed once passes again without its regular expressions: these checks cost 10,300
     * instructions a request without the cache and 4,700 with it (callgrind, 10,000 calls),
     * where a warm bridged GET to a loopback origin costs about 416,000.
     */
    private static function checkHost(RequestInterface $request, string $host): void
    {
        $key = $host . "\0" . implode("\0", $request->getHeader('Host'));
        if (isset(self::$passedHosts[$key])) {
            return;
        }
        HostValidator::assertRequestHost($request);
        if (\count(self::$passedHosts) >= self::MAX_PASSED_HOSTS) {
            self::$passedHosts = [];
        }
        self::$passedHosts[$key] = true;
    }
}
