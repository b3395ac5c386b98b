<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

use Psr\Http\Message\RequestInterface;
use WarmHttp\Exception\RequestException;

/**
 * Refuses a request before a byte is sent. PSR-7 implementations differ in what they let
 * through (a hand-rolled message can carry CR/LF), so the client checks for itself.
 *
 * @internal
 */
final class RequestGuard
{
    private const TOKEN = '/^[!#$%&\'*+\-.^_`|~0-9A-Za-z]+$/D';

    /** Methods that are tokens, known without the regex (most requests'). */
    private const COMMON_METHODS = ['GET' => true, 'POST' => true, 'PUT' => true, 'PATCH' => true, 'DELETE' => true, 'HEAD' => true, 'OPTIONS' => true];

    public static function check(RequestInterface $request): void
    {
        self::method($request);
        if ($request instanceof LazyRequest && $request->isAsCreated()) {
            // LazyRequest::of() took only an http(s) URL with a host, and its one header is the
            // Host from it: asking for its Uri would parse it through nyholm (two files and
            // ~3 k instructions per PHP-FPM request), its headers would be made to be checked.
            return;
        }
        self::uri($request);
        foreach ($request->getHeaders() as $name => $values) {
            self::header($request, (string) $name, $values);
        }
    }

    private static function method(RequestInterface $request): void
    {
        $method = $request->getMethod();
        if (!isset(self::COMMON_METHODS[$method]) && preg_match(self::TOKEN, $method) !== 1) {
            throw new RequestException($request, \sprintf(
                'Invalid HTTP method %s: a method is a token such as GET or POST, without spaces or control characters.',
                json_encode($method),
            ));
        }
    }

    private static function uri(RequestInterface $request): void
    {
        $uri = $request->getUri();
        $scheme = strtolower($uri->getScheme());
        if ($scheme === '' || $uri->getHost() === '') {
            throw new RequestException($request, \sprintf(
                'The request URI "%s" is not absolute: give a scheme and host, as in https://api.example.com/path.',
                (string) $uri,
            ));
        }
        if ($scheme !== 'http' && $scheme !== 'https') {
            throw new RequestException($request, \sprintf(
                'Unsupported URI scheme "%s" in "%s": WarmHttp sends only http and https.',
                $scheme,
                (string) $uri,
            ));
        }
    }

    /** @param array<string> $values */
    private static function header(RequestInterface $request, string $name, array $values): void
    {
        if (preg_match(self::TOKEN, $name) !== 1) {
            throw new RequestException($request, \sprintf('Invalid header name %s: a header name is a token, without spaces, colons or control characters.', json_encode($name)));
        }
        foreach ($values as $value) {
            if (strpbrk($value, "\r\n\0") !== false) {
                throw new RequestException($request, \sprintf('Header "%s" has a CR, LF or NUL in its value: refused, since it would split the request.', $name));
            }
        }
    }
}
