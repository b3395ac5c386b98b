<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

use Psr\Http\Message\RequestInterface;

// Functions imported by name: a call site's first call in a PHP request skips the namespaced
// lookup (a relay_sync first call under FPM ~3 k instructions less over the App files, callgrind).
use function strcasecmp;
use function strncasecmp;

use WarmHttp\Internal\LazyRequest;
use WarmHttp\Relay\Outbound\SyncSettings;

/**
 * A relay_sync request as the bytes the curl hop writes to the relay (SyncRoute::curlOptions
 * over CurlOptions::forRequest), for the kept stream (SyncStream): the same request line, the
 * same header lines, the same body, so the relay forwards the same request upstream
 * (RelaySyncConformanceTest compares every header the destination received).
 *
 * Only requests whose bytes are known up front go this way: a body of known size up to 1 MiB
 * in a seekable stream. An `Expect` header (curl waits for a 100 Continue), a
 * `Transfer-Encoding` (curl chunks the body) or a HEAD with a body (curl stops it at the
 * answer's head, Transfer::receiveHeadOnly) keeps the curl hop.
 *
 * Private properties, not native readonly: made on every PHP-FPM request's relay_sync call,
 * and PHP 8.2 writes readonly ones on the VM's slow path (issue 16, callgrind).
 *
 * @internal
 */
final class SyncRequestBytes
{
    /** CurlOptions::INLINE_BODY_BYTES: bodies up to this size go as one string. */
    private const INLINE_BODY_BYTES = 1048576;

    /**
     * UserAgent::HEADER_LINE, written out: naming it loads UserAgent's file on every PHP-FPM
     * request (~2 k instructions). SyncRequestBytesTest fails when the two differ.
     */
    public const USER_AGENT_LINE = 'User-Agent: WarmHttp/0.1.0';

    /** Methods whose empty body curl announces ("Content-Length: 0", CurlOptions::emptyBody). */
    private const EMPTY_BODY_ANNOUNCED = ['POST' => true, 'PUT' => true, 'PATCH' => true];

    /**
     * @param string      $relayLines     the relay's header lines every request of the Client sends, each ended by CRLF
     * @param string      $settings       the X-WarmHttp-Transfer line without the request's version
     * @param string|null $acceptEncoding the Client's `decode_content` codings (curl's CURLOPT_ACCEPT_ENCODING)
     */
    public function __construct(
        private string $relayLines,
        private string $settings,
        private ?string $httpVersion,
        private ?string $acceptEncoding,
    ) {}

    /** Whether the request's bytes can be written at once; nothing of it is read here. */
    public static function fits(RequestInterface $request): bool
    {
        if ($request instanceof LazyRequest && $request->isAsCreated()) {
            return true; // no body, no header but Host: and no MemoryStream made to say so
        }
        $body = $request->getBody();
        $size = $body->getSize();

        return $size !== null
            && ($size === 0 || ($size <= self::INLINE_BODY_BYTES && $body->isSeekable() && $request->getMethod() !== 'HEAD'))
            && !$request->hasHeader('Expect')
            && !$request->hasHeader('Transfer-Encoding');
    }

    /** Whether the answer is decoded on this hop: curl decodes when it offered the codings itself. */
    public function decodes(RequestInterface $request): bool
    {
        return $this->acceptEncoding !== null && !$request->hasHeader('Accept-Encoding');
    }

    /**
     * The request's bytes, head and body, in libcurl 7.88's order (Curl_http): the Host line,
     * its own Accept-Encoding, the custom lines as given (the request's, then the relay's),
     * then the body's Content-Length. Call fits() first.
     */
    public function encode(RequestInterface $request): string
    {
        if ($request instanceof LazyRequest && $request->isAsCreated()) {
            return $this->encodeAsCreated($request);
        }
        $body = self::body($request);
        $announced = $body !== '' || isset(self::EMPTY_BODY_ANNOUNCED[$request->getMethod()]);
        $uri = $request->getUri();
        $target = (string) ($uri->getFragment() === '' ? $uri : $uri->withFragment(''));
        $host = $request->getHeaderLine('Host');
        $head = $request->getMethod() . ' ' . $target . " HTTP/1.1\r\nHost: " . ($host !== '' ? $host : $uri->getAuthority()) . "\r\n";
        if ($this->decodes($request)) {
            $head .= 'Accept-Encoding: ' . $this->acceptEncoding . "\r\n";
        }
        $head .= $this->headerLines($request, $announced) . $this->relayLines . SyncSettings::withVersion($this->settings, $this->httpVersion, $request->getProtocolVersion()) . "\r\n";
        if ($announced) {
            $head .= 'Content-Length: ' . \strlen($body) . "\r\n";
        }

        return $head . "\r\n" . $body;
    }

    /**
     * encode() of a request as createRequest() made it, from its URL and Host as strings: its
     * URL is the target as nyholm writes it (no fragment), its one header is Host and its body
     * is empty. The same bytes without a Uri object made and written back (~6 k instructions of
     * a PHP-FPM request's first call, callgrind; SyncRequestBytesTest compares the two).
     */
    private function encodeAsCreated(LazyRequest $request): string
    {
        $head = $request->method . ' ' . $request->url . " HTTP/1.1\r\nHost: " . $request->parts[0] . "\r\n";
        if ($this->acceptEncoding !== null) {
            $head .= 'Accept-Encoding: ' . $this->acceptEncoding . "\r\n";
        }
        // A request of version 1.1 adds no version of its own (SyncSettings::withVersion): without an http_version, SyncSettings is not loaded.
        $head .= self::USER_AGENT_LINE . "\r\n" . $this->relayLines . ($this->httpVersion === null ? $this->settings : SyncSettings::withVersion($this->settings, $this->httpVersion, '1.1')) . "\r\n";
        if (isset(self::EMPTY_BODY_ANNOUNCED[$request->method])) {
            $head .= "Content-Length: 0\r\n";
        }

        return $head . "\r\n";
    }

    private static function body(RequestInterface $request): string
    {
        $body = $request->getBody();
        if ($body->getSize() === 0) {
            return '';
        }
        $body->rewind();

        return $body->getContents();
    }

    /**
     * The request's own lines as curl sends them (CurlOptions::headers): the framing is curl's
     * (only a "Content-Length: 0" on a request without a body stays), Host went first, the
     * caller's X-WarmHttp-* lines go (SyncRoute), no Accept, Content-Type or Expect of curl's
     * own, and the Client's User-Agent where the request has none.
     */
    private function headerLines(RequestInterface $request, bool $announced): string
    {
        $lines = '';
        foreach ($request->getHeaders() as $name => $values) {
            $name = (string) $name;
            if (strcasecmp($name, 'Host') === 0 || strncasecmp($name, 'X-WarmHttp-', 11) === 0 || (strcasecmp($name, 'Content-Length') === 0 && ($announced || $values !== ['0']))) {
                continue;
            }
            foreach ($values as $value) {
                $lines .= $name . ($value === '' ? ":\r\n" : ': ' . $value . "\r\n");
            }
        }
        if (!$request->hasHeader('User-Agent')) {
            $lines .= self::USER_AGENT_LINE . "\r\n";
        }

        return $lines;
    }
}
