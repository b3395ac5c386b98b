<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use GuzzleHttp\Exception\InvalidArgumentException as GuzzleInvalidArgumentException;
use GuzzleHttp\Exception\RequestException as GuzzleRequestException;
use Psr\Http\Message\RequestInterface;

/**
 * Request option values Guzzle's CurlHandler refuses, refused here with the same exception
 * class and message, thrown from the handler call as Guzzle's are (before anything is sent
 * and before on_stats). Values Guzzle's CurlHandler accepts (`verify => 10` counts as true, a
 * `stream_context` of any type is ignored: only its StreamHandler reads it) pass here too.
 *
 * @internal
 */
final class OptionChecks
{
    /**
     * @param array<string, mixed> $options
     *
     * @throws \InvalidArgumentException|GuzzleRequestException
     */
    public static function check(RequestInterface $request, array $options): void
    {
        self::callable($options, 'on_trailers', 'on_trailers must be callable');
        self::multiplex($options['multiplex'] ?? null);
        if (isset($options['protocols'])) {
            self::protocols($request, $options['protocols']);
        }
        TlsRange::check($request, $options);
        self::credential($options, 'cert', 'SSL certificate not found: %s');
        self::credential($options, 'ssl_key', 'SSL private key not found: %s');
        self::callable($options, 'progress', 'progress client option must be callable');
        self::callable($options, 'on_headers', 'on_headers must be callable');
    }

    /**
     * The credential's path and passphrase, once check() has passed.
     *
     * @return array{string, ?string}|null
     */
    public static function credentialOf(mixed $value): ?array
    {
        if (\is_string($value)) {
            return [$value, null];
        }
        if (\is_array($value) && isset($value[0]) && \is_string($value[0])) {
            return [$value[0], isset($value[1]) && \is_string($value[1]) ? $value[1] : null];
        }

        return null;
    }

    /** @param array<string, mixed> $options */
    private static function callable(array $options, string $name, string $message): void
    {
        if (isset($options[$name]) && !\is_callable($options[$name])) {
            throw new \InvalidArgumentException($message);
        }
    }

    /** As Guzzle: the list is checked first, then the request's scheme against it. */
    private static function protocols(RequestInterface $request, mixed $protocols): void
    {
        if (!\is_array($protocols) || $protocols === []) {
            throw new GuzzleInvalidArgumentException('protocols must be a non-empty array of "http" and/or "https"');
        }
        foreach ($protocols as $protocol) {
            if (!\is_string($protocol)) {
                throw new GuzzleInvalidArgumentException('protocols must contain only strings');
            }
            if ($protocol !== 'http' && $protocol !== 'https') {
                throw new GuzzleInvalidArgumentException('protocols may only contain "http" and "https"');
            }
        }
        $scheme = $request->getUri()->getScheme();
        if (!\in_array($scheme, $protocols, true)) {
            throw new GuzzleRequestException(\sprintf('The scheme "%s" is not allowed by the protocols request option.', $scheme), $request);
        }
    }

    /** GuzzleHttp\Multiplexing's values (Guzzle 7.16; spelled out for Guzzle releases without it). */
    private static function multiplex(mixed $multiplex): void
    {
        if ($multiplex !== null && !\in_array($multiplex, ['none', 'eager', 'wait', 'require_eager', 'require_wait'], true)) {
            throw new \InvalidArgumentException(\sprintf('The "multiplex" option must be null or a GuzzleHttp\\Multiplexing::* constant; received %s.', get_debug_type($multiplex)));
        }
    }

    /** Checked where a string `verify` is mapped (OptionMap::tls), off the path of `verify => true`. */
    public static function caBundle(string $verify): void
    {
        if (!file_exists($verify)) {
            throw new \InvalidArgumentException("SSL CA bundle not found: {$verify}");
        }
    }

    /** @param array<string, mixed> $options */
    private static function credential(array $options, string $name, string $notFound): void
    {
        if (!isset($options[$name])) {
            return;
        }
        $value = $options[$name];
        $invalid = new \InvalidArgumentException(\sprintf('Invalid %s request option', $name));
        if (\is_array($value) && (!isset($value[0]) || !\is_string($value[0]) || (isset($value[1]) && !\is_string($value[1])))) {
            throw $invalid;
        }
        $path = self::credentialOf($value)[0] ?? throw $invalid;
        if (!file_exists($path)) {
            throw new \InvalidArgumentException(\sprintf($notFound, $path));
        }
    }
}
