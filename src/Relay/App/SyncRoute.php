<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

use Psr\Http\Message\RequestInterface;
use WarmHttp\Exception\NetworkException;

/**
 * The `relay_sync` option: the Client sends a request to the relay's sync mode instead of its
 * destination, absolute-form target over the relay's socket, so the relay's warm upstream
 * connections serve processes that keep none (PHP-FPM).
 *
 * @internal
 */
final class SyncRoute
{
    /**
     * @param array<int, mixed> $curl the request's own curl options
     *
     * @return array<int, mixed>
     *
     * @throws NetworkException a socket that may not be the relay's (SocketOwnership)
     */
    public static function curlOptions(array $curl, RequestInterface $request, RelayAddress $relay, ?string $token): array
    {
        $curl[\CURLOPT_REQUEST_TARGET] = $curl[\CURLOPT_URL];
        $curl[\CURLOPT_URL] = $relay->curlUrl();
        if ($relay->socketPath !== null) {
            // Checked once per process (two stat() calls; under PHP-FPM once per request, next
            // to a whole HTTP exchange): curl opens the path itself, so this is the only check.
            try {
                SocketOwnership::verify($relay->socketPath);
            } catch (RelayUnreachable $e) {
                throw new NetworkException($request, 'relay_sync: ' . $e->getMessage(), 0, $e);
            }
            $curl[\CURLOPT_UNIX_SOCKET_PATH] = $relay->socketPath;
        }
        $curl[\CURLOPT_HTTP_VERSION] = \CURL_HTTP_VERSION_1_1;
        // The hop is to the relay on this machine: a client's `proxy` is for the destination.
        $curl[\CURLOPT_PROXY] = '';
        // Curl would resolve a Location against the relay's URL and send the same target
        // again: the Client follows redirects itself here (SyncRedirects).
        $curl[\CURLOPT_FOLLOWLOCATION] = false;
        unset($curl[\CURLOPT_PIPEWAIT]);
        /** @var list<string> $given */
        $given = $curl[\CURLOPT_HTTPHEADER];
        // The caller's own X-WarmHttp-* lines go: one "X-WarmHttp-Mode: async" among them made
        // the relay answer 202, which the Client then returned as the destination's answer.
        $headers = array_values(array_filter($given, static fn(string $line): bool => strncasecmp($line, 'X-WarmHttp-', 11) !== 0));
        $headers[] = 'X-WarmHttp-Mode: sync';
        if ($token !== null) {
            $headers[] = 'X-WarmHttp-Token: ' . $token;
        }
        if (!$request->hasHeader('Host')) {
            $headers[] = 'Host: ' . $request->getUri()->getAuthority();
        }
        $curl[\CURLOPT_HTTPHEADER] = $headers;

        return $curl;
    }
}
