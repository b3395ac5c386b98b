<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

use Psr\Http\Message\RequestInterface;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Internal\Options;
use WarmHttp\Relay\Outbound\SyncSettings;

/**
 * The `relay_sync` option: the Client sends a request to the relay's sync mode instead of its
 * destination, absolute-form target over the relay's socket, so the relay's warm upstream
 * connections serve processes that keep none (PHP-FPM). The relay is then the app's transport:
 * the request carries the Client's transfer settings (SyncSettings), and the answer is read by
 * SyncExchange, so the same request gives the same response or exception as a direct call.
 *
 * Made once per Client: the header lines that do not change per request are built here.
 *
 * @internal
 */
final class SyncRoute
{
    /** @param list<string> $lines the relay's header lines every request of this Client sends */
    private function __construct(
        private readonly RelayAddress $relay,
        private readonly array $lines,
        private readonly string $settings,
        private readonly ?string $httpVersion,
    ) {}

    public static function of(Options $options): ?self
    {
        $relay = $options->relay();
        if ($relay === null || !$options->bool('relay_sync')) {
            return null;
        }
        $lines = ['X-WarmHttp-Mode: sync'];
        $token = $options->string('relay_token');
        if ($token !== null) {
            $lines[] = 'X-WarmHttp-Token: ' . $token;
        }
        if ($options->bool('relay_sync_guard')) {
            $lines[] = 'X-WarmHttp-Guard: on';
        }

        return new self($relay, $lines, SyncSettings::HEADER . ': ' . SyncSettings::of($options), $options->string('http_version'));
    }

    /** How the Client's answer from the relay is read: the relay's own failures become exceptions. */
    public function exchange(RequestInterface $request): SyncExchange
    {
        return new SyncExchange($request, $this->relay);
    }

    /**
     * @param array<int, mixed> $curl the request's own curl options
     *
     * @return array<int, mixed>
     *
     * @throws NetworkException a socket that may not be the relay's (SocketOwnership)
     */
    public function curlOptions(array $curl, RequestInterface $request): array
    {
        $curl[\CURLOPT_REQUEST_TARGET] = $curl[\CURLOPT_URL];
        $curl[\CURLOPT_URL] = $this->relay->curlUrl();
        if ($this->relay->socketPath !== null) {
            // Checked once per process (two stat() calls; under PHP-FPM once per request, next
            // to a whole HTTP exchange): curl opens the path itself, so this is the only check.
            try {
                SocketOwnership::verify($this->relay->socketPath);
            } catch (RelayUnreachable $e) {
                throw new NetworkException($request, \sprintf('%s %s failed: relay_sync: %s.', $request->getMethod(), (string) $request->getUri(), $e->getMessage()), 0, $e);
            }
            $curl[\CURLOPT_UNIX_SOCKET_PATH] = $this->relay->socketPath;
        }
        // The request's version is the relay's to use upstream (in the settings line): the hop
        // to the relay is HTTP/1.1.
        $curl[\CURLOPT_HTTP_VERSION] = \CURL_HTTP_VERSION_1_1;
        // The hop is to the relay on this machine (a Client with relay_sync has no proxy).
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
        array_push($headers, ...$this->lines);
        $headers[] = SyncSettings::withVersion($this->settings, $this->httpVersion, $request->getProtocolVersion());
        if (!$request->hasHeader('Host')) {
            $headers[] = 'Host: ' . $request->getUri()->getAuthority();
        }
        $curl[\CURLOPT_HTTPHEADER] = $headers;

        return $curl;
    }
}
