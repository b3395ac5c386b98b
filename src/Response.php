<?php

declare(strict_types=1);

namespace WarmHttp;

// Functions imported by name, not left to the namespace fallback: PHP then calls them directly,
// ~25 instructions less per call, and a warm answer makes eleven (callgrind, issue 16).
use function curl_getinfo;
use function curl_multi_getcontent;
use function preg_match;

use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\StreamInterface;

use function substr;

use WarmHttp\Internal\ParsedResponse;

/**
 * A PSR-7 response that also tells how it was fetched: `$response->stats()`.
 * Every with*() keeps the stats, so middleware that rewrites headers does not lose them.
 *
 * It holds the parts of the head as curl delivered them and splits the header fields only
 * when first asked (ParsedResponse); most callers read the status and the body only. From its
 * first with*() on, a copy reads through a validated nyholm response (PSR-7's immutability).
 */
final class Response implements ResponseInterface
{
    /**
     * An HTTP/2 head as curl 7.88 writes it: "HTTP/2 " . :status . " \r\n" (nghttp2 lets only
     * three digits through; a status in 100-599 is taken), then the field lines nghttp2 let
     * through (RFC 9113 8.2.1: a name of lower-case token characters, a value without CTL but
     * HTAB), then the empty line. Checked whole: curl 7.88 also takes an "HTTP/2 200" status line
     * from an HTTP/1.1 server and reports HTTP/2, and then the fields are whatever that server
     * sent. Anything else goes to ResponseParser, which reads or refuses it as it does any head.
     * The field check costs ~1 k instructions per answer (callgrind, issue 16).
     */
    private const HTTP2_HEAD = '/\AHTTP\/2 [1-5]\d\d \r\n(?:[!#$%&\'*+\-.^_`|~0-9a-z]+: [\t\x20-\x7E\x80-\xFF]*\r\n)*\r\n/';

    /** Where the fields start after such a status line ("HTTP/2 200 \r\n"). */
    private const HTTP2_FIELDS_AT = 13;

    /**
     * One whole head as the relay writes it to a relay_sync Client (WireResponse::headWith, the
     * version the destination's, SyncStream::destinationHead()): a status line of version 1.0,
     * 1.1 or 2, a status in 100-599 and a reason without CTL but HTAB, then field lines as
     * ResponseParser's FIELDS takes them, then the empty line. Every head it matches,
     * ResponseParser reads to the same response; anything else goes there, to be read or
     * refused as any head is (~8 k instructions of a PHP-FPM request's first call, callgrind).
     */
    private const RELAY_HEAD = '/\AHTTP\/(1\.[01]|2) ([1-5]\d\d)((?: [\t\x20-\x7E\x80-\xFF]*)?)\r\n((?:[!#$%&\'*+\-.^_`|~0-9A-Za-z]+:[ \t\x21-\x7E\x80-\xFF]*\r\n)*)\r\n\z/';

    /*
     * Properties typed by their docblocks, declared with a value, neither native readonly nor
     * promoted: one response is made per request, and PHP 8.2 checks a native type on every
     * write (~35 instructions each, ~90 for a class type; callgrind, issue 16).
     */

    /** @var TransferStats|null */
    private $stats;

    /** @var int */
    private $status = 0;

    /** @var string */
    private $reason = '';

    /** @var string */
    private $protocol = '';

    /** @var list<string>|string "Name: value" lines, or the head's field block; checked already */
    private $headerLines = '';

    /**
     * What curl buffered of an HTTP/2 answer (ofHttp2()): its field block and body are cut out
     * of it when first read, not per response (split()). '' once split, or for other responses.
     *
     * @var string
     */
    private $raw = '';

    /** @var int */
    private $fieldsAt = 0;

    /** @var int */
    private $bodyAt = 0;

    /** @var StreamInterface|null */
    private $body;

    /**
     * What it reads through; null: its own parts (ofHead()).
     *
     * @var ResponseInterface|ParsedResponse|null
     */
    private $inner;

    /** @var array<string, mixed> */
    private $curlInfo = [];

    /**
     * The facts of a warm HTTP/2 answer (ofWarmHttp2()), kept as they came: null for other
     * responses, whose facts are in $curlInfo. Four writes cost less than building their
     * array per response (~0.8 k instructions, callgrind); stats() builds it when asked.
     *
     * @var string|null
     */
    private $primaryIp;

    /** @var int */
    private $primaryPort = 0;

    /** @var int */
    private $startTransferUs = 0;

    /** @var int */
    private $totalUs = 0;

    /**
     * @internal
     *
     * @param array<string, mixed> $curlInfo
     */
    public function __construct(ResponseInterface|ParsedResponse|null $inner = null, array $curlInfo = [])
    {
        $this->inner = $inner;
        $this->curlInfo = $curlInfo;
    }

    /**
     * A response read from a head ResponseParser checked: its fields are split when first asked.
     *
     * @internal
     *
     * @param list<string>|string  $headerLines "Name: value" lines, or the head's field block
     * @param array<string, mixed> $curlInfo
     */
    public static function ofHead(int $status, string $reason, string $protocol, array|string $headerLines, StreamInterface $body, array $curlInfo): self
    {
        $response = new self(null, $curlInfo);
        $response->status = $status;
        $response->reason = $reason;
        $response->protocol = $protocol;
        $response->headerLines = $headerLines;
        $response->body = $body;

        return $response;
    }

    /**
     * The one head of an HTTP/2 answer (no 1xx before it) as curl 7.88 buffers it, checked
     * whole by one regex (HTTP2_HEAD). Read without the generic status-line split and per-line
     * field checks (ResponseParser): ~7 k instructions less per response, and built here in one
     * call rather than three (~0.8 k, callgrind, issue 16).
     * Null for anything else, a status outside 100-599 included: ResponseParser reads it, or
     * refuses it.
     *
     * @internal
     *
     * @param int                  $headerSize where the body starts (curl's CURLINFO_HEADER_SIZE)
     * @param array<string, mixed> $curlInfo
     * @param StreamInterface|null $body       a streamed body; null: the rest of $raw
     */
    public static function ofHttp2(string $raw, int $headerSize, array $curlInfo, ?StreamInterface $body = null): ?self
    {
        if (($curlInfo['http_version'] ?? null) !== \CURL_HTTP_VERSION_2_0 || !self::isHttp2Head($raw, $headerSize)) {
            return null;
        }
        $status = (int) substr($raw, 7, 3);
        $fieldsAt = self::HTTP2_FIELDS_AT;
        if ($body !== null) {
            return self::ofHead($status, '', '2', $fieldsAt < $headerSize - 4 ? substr($raw, $fieldsAt, $headerSize - 4 - $fieldsAt) : '', $body, $curlInfo);
        }
        // Nothing is copied until read: most callers read the status and the body only, and
        // every copy of a body costs (~1 k instructions per response for the fields and body
        // substrings and the body stream, callgrind, issue 16).
        $response = new self(null, $curlInfo);
        $response->status = $status;
        $response->protocol = '2';
        $response->raw = $raw;
        $response->fieldsAt = $fieldsAt;
        $response->bodyAt = $headerSize;

        return $response;
    }

    /**
     * The answer curl buffered on $handle, when it is the common warm one: HTTP/2, one head (no
     * 1xx, trailer block, nor redirect followed: its redirect count is 0), on a reused
     * connection. Its facts are read here, straight into the response, rather than by
     * CurlInfo::read() into an array handed on through ofHttp2(): the same seven curl_getinfo()
     * calls, and stats() reads the same array (warmInfo()), ~2.5 k instructions less per
     * request (callgrind, issue 16). Null for anything else, having read no body:
     * CurlInfo::read() and ofHttp2() or ResponseParser take it as before.
     *
     * The head is checked whole by one regex (HTTP2_HEAD), as ofHttp2() checks it.
     *
     * @internal CurlPool::sendAlone()
     */
    public static function ofWarmHttp2(\CurlHandle $handle): ?self
    {
        // The version first: an HTTP/1.1 answer then costs CurlInfo::read() one call more, not two.
        if (curl_getinfo($handle, \CURLINFO_HTTP_VERSION) !== \CURL_HTTP_VERSION_2_0 || curl_getinfo($handle, \CURLINFO_NUM_CONNECTS) !== 0) {
            return null;
        }
        $raw = (string) curl_multi_getcontent($handle);
        $headerSize = curl_getinfo($handle, \CURLINFO_HEADER_SIZE);
        if (!self::isHttp2Head($raw, $headerSize)) {
            return null;
        }
        $response = new self();
        $response->status = (int) substr($raw, 7, 3);
        $response->protocol = '2';
        $response->raw = $raw;
        $response->fieldsAt = self::HTTP2_FIELDS_AT;
        $response->bodyAt = $headerSize;
        $response->startTransferUs = curl_getinfo($handle, \CURLINFO_STARTTRANSFER_TIME_T);
        $response->totalUs = curl_getinfo($handle, \CURLINFO_TOTAL_TIME_T);
        $response->primaryIp = curl_getinfo($handle, \CURLINFO_PRIMARY_IP);
        $response->primaryPort = curl_getinfo($handle, \CURLINFO_PRIMARY_PORT);

        return $response;
    }

    /**
     * A relay_sync answer's head (RELAY_HEAD) with its body, read as ResponseParser::parse()
     * reads it, without loading it; null for any other head: ResponseParser reads or refuses it.
     *
     * @internal SyncStream
     *
     * @param string               $head     the final head, its empty line included
     * @param array<string, mixed> $curlInfo
     */
    public static function ofRelayHead(string $head, array $curlInfo, StreamInterface $body): ?self
    {
        if (preg_match(self::RELAY_HEAD, $head, $m) !== 1) {
            return null;
        }
        $response = new self(null, $curlInfo);
        $response->status = (int) $m[2];
        // ResponseParser trims the head's end: with no field line, the reason's trailing blanks.
        $response->reason = ltrim($m[4] === '' ? rtrim($m[3], " \t") : $m[3], ' ');
        $response->protocol = $m[1];
        $response->headerLines = $m[4] === '' ? '' : substr($m[4], 0, -2);
        $response->body = $body;

        return $response;
    }

    /** Whether $raw starts with one HTTP/2 head as curl writes it (HTTP2_HEAD), $headerSize long. */
    private static function isHttp2Head(string $raw, int $headerSize): bool
    {
        return preg_match(self::HTTP2_HEAD, $raw, $head) === 1 && \strlen($head[0]) === $headerSize;
    }

    public function stats(): TransferStats
    {
        return $this->stats ??= TransferStats::fromCurlInfo($this->primaryIp === null ? $this->curlInfo : $this->warmInfo());
    }

    /**
     * A warm HTTP/2 answer's facts as CurlInfo::read() gives those of a reused connection.
     *
     * @return array<string, mixed>
     */
    private function warmInfo(): array
    {
        return [
            'header_size' => $this->bodyAt,
            'num_connects' => 0,
            'http_version' => \CURL_HTTP_VERSION_2_0,
            'starttransfer_time_us' => $this->startTransferUs,
            'total_time_us' => $this->totalUs,
            'primary_ip' => $this->primaryIp,
            'primary_port' => $this->primaryPort,
        ];
    }

    public function getProtocolVersion(): string
    {
        return $this->inner === null ? $this->protocol : $this->inner->getProtocolVersion();
    }

    public function withProtocolVersion(string $version): static
    {
        return $this->with($this->psr7()->withProtocolVersion($version));
    }

    public function getHeaders(): array
    {
        return $this->inner()->getHeaders();
    }

    public function hasHeader(string $name): bool
    {
        return $this->inner()->hasHeader($name);
    }

    public function getHeader(string $name): array
    {
        return $this->inner()->getHeader($name);
    }

    public function getHeaderLine(string $name): string
    {
        return $this->inner()->getHeaderLine($name);
    }

    public function withHeader(string $name, $value): static
    {
        return $this->with($this->psr7()->withHeader($name, $value));
    }

    public function withAddedHeader(string $name, $value): static
    {
        return $this->with($this->psr7()->withAddedHeader($name, $value));
    }

    public function withoutHeader(string $name): static
    {
        return $this->with($this->psr7()->withoutHeader($name));
    }

    public function getBody(): StreamInterface
    {
        if ($this->inner !== null) {
            return $this->inner->getBody();
        }

        return $this->body ?? ($this->raw !== '' ? $this->split() : new Internal\MemoryStream(''));
    }

    public function withBody(StreamInterface $body): static
    {
        return $this->with($this->psr7()->withBody($body));
    }

    public function getStatusCode(): int
    {
        return $this->inner === null ? $this->status : $this->inner->getStatusCode();
    }

    public function withStatus(int $code, string $reasonPhrase = ''): static
    {
        return $this->with($this->psr7()->withStatus($code, $reasonPhrase));
    }

    public function getReasonPhrase(): string
    {
        return $this->inner === null ? $this->reason : $this->inner->getReasonPhrase();
    }

    /** Cuts the field block and the body out of what curl buffered (ofHttp2()); returns the body. */
    private function split(): StreamInterface
    {
        $fieldsEnd = $this->bodyAt - 4;
        $this->headerLines = $this->fieldsAt < $fieldsEnd ? substr($this->raw, $this->fieldsAt, $fieldsEnd - $this->fieldsAt) : '';
        $this->body = new Internal\MemoryStream(substr($this->raw, $this->bodyAt));
        $this->raw = '';

        return $this->body;
    }

    private function inner(): ResponseInterface|ParsedResponse
    {
        if ($this->raw !== '') {
            $this->split();
        }

        return $this->inner ??= new ParsedResponse($this->status, $this->reason, $this->protocol, $this->headerLines, $this->getBody());
    }

    private function psr7(): ResponseInterface
    {
        $inner = $this->inner();

        return $inner instanceof ParsedResponse ? $inner->toPsr7() : $inner;
    }

    private function with(ResponseInterface $inner): static
    {
        $copy = clone $this;
        $copy->inner = $inner;

        return $copy;
    }
}
