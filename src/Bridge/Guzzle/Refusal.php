<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use Psr\Http\Message\RequestInterface;
use WarmHttp\Exception\RequestException;

/**
 * The handler's refusals of Guzzle request options it cannot honour on a shared pool: each
 * names the option, why, and what to do instead. The Handler turns them into a rejected
 * GuzzleHttp\Exception\RequestException.
 *
 * @internal
 */
final class Refusal
{
    public static function unsupported(RequestInterface $request, string $option, string $why): RequestException
    {
        return new RequestException($request, \sprintf(
            'The Guzzle request option "%s" is not supported by WarmHttp\Bridge\Guzzle\Handler: %s. Leave "%s" unset, or send this request through Guzzle\'s default handler.',
            $option,
            $why,
            $option,
        ));
    }

    public static function invalid(RequestInterface $request, string $option, string $expected, mixed $value): RequestException
    {
        return new RequestException($request, \sprintf(
            'The Guzzle request option "%s" must be %s; got %s.',
            $option,
            $expected,
            get_debug_type($value),
        ));
    }
}
