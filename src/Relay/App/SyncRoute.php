<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

// Functions imported by name: a call site's first call in a PHP request skips the namespaced
// lookup (a relay_sync first call under FPM ~3 k instructions less over the App files, callgrind).
use function array_diff;
use function array_filter;
use function array_map;
use function array_push;
use function array_values;
use function explode;
use function implode;

use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;

use function rawurlencode;
use function strncasecmp;

use WarmHttp\Exception\NetworkException;
use WarmHttp\Exception\RequestException;
use WarmHttp\Internal\MalformedResponse;
use WarmHttp\Internal\Options;
use WarmHttp\Internal\RequestGuard;
use WarmHttp\Relay\Outbound\SyncSettings;

/**
 * The `relay_sync` option: the Client sends a request to the relay's sync mode instead of its
 * destination, absolute-form target over the relay's socket, so the relay's warm upstream
 * connections serve processes that keep none (PHP-FPM). The relay is then the app's transport:
 * the request carries the Client's transfer settings (SyncSettings), and the answer is read by
 * SyncExchange, so the same request gives the same response or exception as a direct call.
 *
 * Two hops to the relay, one answer: a plain sendRequest() goes over the process's kept stream
 * (send(), SyncStream); sendAsync(), sendAll(), concurrently() and `stream => true` go through
 * the curl pool (curlOptions()), which runs transfers side by side and streams bodies.
 *
 * Made once per Client: the header lines that do not change per request are built here.
 *
 * Private properties, not native readonly: made on every PHP-FPM request's relay_sync call,
 * and PHP 8.2 writes readonly ones on the VM's slow path (issue 16, callgrind).
 *
 * @internal
 *
 * @phpstan-import-type RelaySyncValues from Options
 */
final class SyncRoute
{
    /** The relay's line naming the destination's HTTP version where it is not 1.1 (Front\StreamedAnswer::VERSION). */
    public const VERSION_HEADER = 'X-WarmHttp-Version';

    /** The relay's line on an answer of its own: a destination's answer never carries it. */
    public const ERROR_HEADER = 'X-WarmHttp-Error';

    /** @param list<string> $lines the relay's header lines every request of this Client sends */
    private function __construct(
        private RelayAddress $relay,
        private array $lines,
        private string $settings,
        private ?string $httpVersion,
        private ?SyncStream $stream,
        private ?int $maxRedirects,
    ) {}

    public static function of(Options $options): ?self
    {
        // Read in one call (Options::relaySync()): ~7 k instructions less than an accessor per value.
        $v = $options->relaySync();
        $relay = $v['relay'];
        if ($relay === null || !$v['relay_sync']) {
            return null;
        }
        $lines = ['X-WarmHttp-Mode: sync'];
        if ($v['relay_token'] !== null) {
            $lines[] = 'X-WarmHttp-Token: ' . $v['relay_token'];
        }
        if ($v['relay_sync_guard']) {
            $lines[] = 'X-WarmHttp-Guard: on';
        }
        $settings = self::settings($v, $options);

        return new self(
            $relay,
            $lines,
            $settings,
            $v['http_version'],
            self::stream($v, $options, $relay, $lines, $settings),
            $v['follow_redirects'] ? $v['max_redirects'] : null,
        );
    }

    /**
     * The X-WarmHttp-Transfer line, SyncSettings::HEADER . ': ' . SyncSettings::of(): written
     * here where every timeout is in whole seconds (nearly every Client), so a PHP-FPM request
     * whose Client has such timeouts does not load SyncSettings and builds the line in one
     * expression (~8 k instructions less, callgrind). SyncRouteTest compares the two.
     */
    public static function settingsLine(Options $options): string
    {
        return self::settings($options->relaySync(), $options);
    }

    /** @param RelaySyncValues $v */
    private static function settings(array $v, Options $options): string
    {
        [$timeout, $connect, $read] = [$v['timeout'], $v['connect_timeout'], $v['read_timeout']];
        if ($timeout >= 1e15 || $connect >= 1e15 || $read >= 1e15 || $timeout !== (float) (int) $timeout || $connect !== (float) (int) $connect || $read !== (float) (int) $read) {
            return SyncSettings::HEADER . ': ' . SyncSettings::of($options);
        }

        return 'X-WarmHttp-Transfer: verify=' . ($v['verify'] ? '1' : '0') . ($v['cafile'] !== null ? '; cafile=' . rawurlencode($v['cafile']) : '')
            . '; timeout=' . (int) $timeout . '; connect-timeout=' . (int) $connect . '; read-timeout=' . (int) $read;
    }

    /**
     * The kept-stream hop, for a Client whose answers it reads as curl would: buffered bodies,
     * decoded (if at all) from codings PHP's zlib undoes as libcurl does.
     *
     * @param RelaySyncValues $v
     * @param list<string>    $lines
     */
    private static function stream(array $v, Options $options, RelayAddress $relay, array $lines, string $settings): ?SyncStream
    {
        $accept = self::acceptEncoding($v['decode_content'], $options);
        if ($v['stream'] || ($accept !== null && !self::undoable($accept))) {
            return null;
        }

        return new SyncStream(
            RelayConnection::to($relay),
            new SyncRequestBytes(implode("\r\n", $lines) . "\r\n", $settings, $v['http_version'], $accept),
            $v['timeout'],
            $v['connect_timeout'],
            $v['read_timeout'],
            $v['max_response_bytes'],
        );
    }

    /**
     * What the stream offers. Its answers are decoded by PHP's zlib (SyncBody), not by libcurl,
     * so `decode_content => true` offers ContentCodings::DEFAULT when ext-zlib is here without
     * asking libcurl's build: curl_version() builds its ~60-entry array, 17 k instructions (6% of
     * a relay_sync first call in PHP-FPM, paid again by every request). The literal, as naming
     * the constant would load ContentCodings' file.
     */
    private static function acceptEncoding(string|bool $value, Options $options): ?string
    {
        if ($value === true) {
            return \function_exists('inflate_init') ? 'gzip' : $options->acceptEncoding();
        }

        return \is_string($value) ? $value : null;
    }

    /** Codings the stream undoes with ext-zlib; others (br, zstd) and a PHP without zlib go through curl. */
    private static function undoable(string $accept): bool
    {
        if ($accept === 'gzip') {
            return \function_exists('inflate_init'); // decode_content => true: no list to split
        }
        $codings = array_map('trim', explode(',', $accept));

        return array_diff($codings, ['gzip', 'deflate', 'identity']) === []
            && (\function_exists('inflate_init') || array_diff($codings, ['identity']) === []);
    }

    /**
     * Sends a prepared request (headers added, RequestGuard passed) over the kept stream and
     * follows its redirects there; null when it is not for that hop (the Client then uses curl):
     * a body whose bytes are not known up front, or a call inside concurrently(), which must
     * not block the other fibers.
     *
     * @throws ClientExceptionInterface
     */
    public function send(RequestInterface $request): ?ResponseInterface
    {
        if ($this->stream === null || \Fiber::getCurrent() !== null || !SyncRequestBytes::fits($request)) {
            return null;
        }
        $left = $this->maxRedirects;
        while (true) {
            $response = $this->hop($this->stream, $request);
            $next = $left === null ? null : self::redirect($request, $response);
            if ($next === null) {
                return $response;
            }
            if ($left === 0) {
                throw new RequestException($request, \sprintf('%s %s failed: too many redirects (see the "max_redirects" option).', $request->getMethod(), $request->getUri()));
            }
            RequestGuard::check($next);
            $request = $next;
            --$left;
        }
    }

    /**
     * One request over the kept stream. The exchange that turns the relay's failures into
     * exceptions is made only for one: a destination's answer needs none of its classes.
     *
     * @throws ClientExceptionInterface
     */
    private function hop(SyncStream $stream, RequestInterface $request): ResponseInterface
    {
        try {
            $response = $stream->send($request);
        } catch (HopFailure $e) {
            throw $this->exchange($request)->failed($e->failure);
        } catch (RelayUnreachable $e) {
            throw $this->exchange($request)->unreachable($e);
        } catch (MalformedResponse $e) {
            throw $this->exchange($request)->malformed($e);
        }
        if (!$stream->answeredByRelay()) {
            return $response; // SyncStream put the destination's version in already
        }
        $outcome = $this->exchange($request)->answer($response);
        if ($outcome instanceof ClientExceptionInterface) {
            throw $outcome;
        }

        return $outcome;
    }

    /** SyncRedirects' next hop, as the curl route follows it. */
    private static function redirect(RequestInterface $request, ResponseInterface $response): ?RequestInterface
    {
        try {
            return SyncRedirects::next($request, $response);
        } catch (\InvalidArgumentException $e) {
            throw new RequestException($request, \sprintf('%s %s failed: %s', $request->getMethod(), $request->getUri(), $e->getMessage()));
        }
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
                throw $this->exchange($request)->unreachable($e);
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
