<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Wire;

/**
 * A strict HTTP/1.1 request parser for the relay socket (RFC 9112): what it cannot read with
 * certainty it refuses with a status, never guesses, so a confused byte stream is never forwarded.
 *
 * @internal
 */
final class RequestParser
{
    /** The whole head, request line to blank line included, however it arrives. */
    public const MAX_HEAD_BYTES = 65536;

    private const TOKEN = "!#$%&'*+.^_`|~0-9A-Za-z-";

    /** Field lines, CRLF between them: each a token, a colon, and a value without CTL but HTAB (field()). */
    private const FIELDS = '{\A[!#$%&\'*+.^_`|~0-9A-Za-z-]+:[^\x00-\x08\x0A-\x1F\x7F]*(?:\r\n[!#$%&\'*+.^_`|~0-9A-Za-z-]+:[^\x00-\x08\x0A-\x1F\x7F]*)*\z}';

    /**
     * Field blocks kept parsed (headers()): a Client sends the same lines on every request to
     * one endpoint (Host, User-Agent, its mode and transfer settings), and parsing them took
     * ~24 k of the ~34 k instructions a sync request's head cost (callgrind, 5 lines), on
     * caches gone cold while the front waited. Bounded in count and in the size of a block kept.
     */
    private const BLOCKS_KEPT = 64;

    private const BLOCK_BYTES_KEPT = 2048;

    /** How the Client writes a sync request's mode (SyncRequestBytes): heads with it are kept. */
    private const SYNC_LINE = "X-WarmHttp-Mode: sync\r\n";

    /** @var array<string, array{list<array{string, string}>, array<string, string>, list<string>, list<string>, list<array{string, string}>|null}> */
    private static array $parsedBlocks = [];

    /**
     * Whole heads kept parsed, by their bytes (up to the blank line): a Client calling one
     * endpoint sends the same head every time; its RequestHead then costs a lookup instead of
     * ~11 k instructions (the request line, the framing, the object). Heads with a body limit
     * other than $headsLimit are parsed anew (the limit decides a 413).
     *
     * @var array<string, RequestHead>
     */
    private static array $parsedHeads = [];

    private static int $headsLimit = -1;

    /**
     * Heads and blocks seen once, by their bytes (a key shares the string, and the hash it
     * computes is the one the lookups reuse): only one seen again is kept. A head with an
     * Idempotency-Key (every async dispatch) never repeats, and keeping each one cost ~6 k
     * instructions a dispatch (callgrind: RequestHeads and arrays held, then freed on eviction).
     */
    private const SEEN_KEPT = 256;

    /** @var array<string, true> */
    private static array $seenOnce = [];

    /**
     * The head at the start of $buffer, or null while it is still arriving. $scanned is how much
     * of $buffer an earlier call already saw without finding the head's end: only the bytes after
     * it are searched again, so a head trickling in byte by byte costs linear time.
     *
     * @throws BadWireRequest
     */
    public static function head(string $buffer, int $maxBodyBytes, int $scanned = 0): ?RequestHead
    {
        $end = self::headEnd($buffer, $scanned);
        if ($end === null) {
            return null;
        }
        // Kept only for heads that say sync mode as the Client writes it: an async dispatch's head
        // carries its own Idempotency-Key and never repeats, and looking it up cost it ~3.5 k
        // instructions (hashing the head and its block, callgrind). Any other spelling is parsed.
        if ($end <= self::BLOCK_BYTES_KEPT) {
            $bytes = \strlen($buffer) === $end + 4 ? $buffer : substr($buffer, 0, $end + 4);
            if (str_contains($bytes, self::SYNC_LINE)) {
                if (self::$headsLimit !== $maxBodyBytes) {
                    [self::$parsedHeads, self::$headsLimit] = [[], $maxBodyBytes];
                }

                return self::$parsedHeads[$bytes] ?? self::keep($bytes, self::parse($buffer, $end, $maxBodyBytes, true));
            }
        }

        return self::parse($buffer, $end, $maxBodyBytes, false);
    }

    private static function keep(string $bytes, RequestHead $head): RequestHead
    {
        if (!self::seenBefore($bytes)) {
            return $head;
        }
        if (\count(self::$parsedHeads) >= self::BLOCKS_KEPT) {
            unset(self::$parsedHeads[array_key_first(self::$parsedHeads)]); // the oldest
        }

        return self::$parsedHeads[$bytes] = $head;
    }

    /** Whether these bytes were seen before; noted if not. */
    private static function seenBefore(string $bytes): bool
    {
        if (isset(self::$seenOnce[$bytes])) {
            return true;
        }
        if (\count(self::$seenOnce) >= self::SEEN_KEPT) {
            self::$seenOnce = [];
        }
        self::$seenOnce[$bytes] = true;

        return false;
    }

    /**
     * The head ending at $end, parsed.
     *
     * @throws BadWireRequest
     */
    private static function parse(string $buffer, int $end, int $maxBodyBytes, bool $keep): RequestHead
    {
        $lineEnd = (int) strpos($buffer, "\r\n");
        [$method, $target, $http10] = self::requestLine(substr($buffer, 0, $lineEnd));
        [$headers, $index, $lengths, $encodings, $upstream] = self::headers($lineEnd < $end ? substr($buffer, $lineEnd + 2, $end - $lineEnd - 2) : '', $keep);
        try {
            [$length, $chunked] = self::framing($lengths, $encodings, $maxBodyBytes, $http10, $target);
        } catch (BadWireRequest $e) {
            // The head is whole: the Router reads its mode (sync or async) and guard header
            // before it decides whether the destination is checked ahead of the size refusal.
            throw $e->status === 413 ? $e->withHead(new RequestHead($method, $target, $headers, $end + 4, $http10, null, false, $index)) : $e;
        }

        return new RequestHead($method, $target, $headers, $end + 4, $http10, $length, $chunked, $index, $upstream);
    }

    /**
     * The body following $head in $buffer, and the bytes the whole request took; null until complete.
     *
     * @return array{string, int}|null
     *
     * @throws BadWireRequest
     */
    public static function body(string $buffer, RequestHead $head, int $maxBodyBytes): ?array
    {
        if ($head->chunked) {
            return ChunkedBody::decode($buffer, $head->length, $maxBodyBytes);
        }
        $length = $head->contentLength ?? 0;
        if (\strlen($buffer) < $head->length + $length) {
            return null;
        }

        return [substr($buffer, $head->length, $length), $head->length + $length];
    }

    /**
     * Where the head's blank line starts, or null while it has not arrived.
     *
     * @throws BadWireRequest
     */
    private static function headEnd(string $buffer, int $scanned): ?int
    {
        // Back three bytes: the CRLFCRLF may straddle what was seen and what is new.
        $from = $scanned > 3 ? $scanned - 3 : 0;
        $end = strpos($buffer, "\r\n\r\n", $from);
        if ($end === false) {
            self::refuseBareLf($buffer, $from);
        }
        if (($end === false ? \strlen($buffer) : $end + 4) > self::MAX_HEAD_BYTES) {
            throw new BadWireRequest(431, 'The request head is larger than 64 KiB.', self::targetOf($buffer));
        }

        return $end === false ? null : $end;
    }

    /**
     * A bare LF would end the head for a lenient peer and not for us: answer it rather than wait
     * for a CRLFCRLF that never comes. In a complete head the line checks refuse it.
     *
     * @throws BadWireRequest
     */
    private static function refuseBareLf(string $buffer, int $from): void
    {
        $crlfFrom = $from > 0 ? $from - 1 : 0;
        if (substr_count($buffer, "\n", $from) !== substr_count($buffer, "\r\n", $crlfFrom)) {
            throw self::bareLf();
        }
    }

    private static function bareLf(): BadWireRequest
    {
        return new BadWireRequest(400, 'Bare LF in the request head: lines must end with CRLF (RFC 9112 2.2).');
    }

    /** The target of a head too large to parse, when its request line can be read. */
    private static function targetOf(string $buffer): ?string
    {
        $lineEnd = strpos($buffer, "\r\n");
        if ($lineEnd === false || $lineEnd > 8192) {
            return null;
        }
        try {
            return self::requestLine(substr($buffer, 0, $lineEnd))[1];
        } catch (BadWireRequest) {
            return null;
        }
    }

    /**
     * @return array{string, string, bool}
     *
     * @throws BadWireRequest
     */
    private static function requestLine(string $line): array
    {
        // The target is visible ASCII only: a control byte or raw UTF-8 in a URL is read
        // differently by whatever parses it next (curl, the destination).
        if (preg_match('{^([' . self::TOKEN . ']+) ([\x21-\x7E]+) HTTP/1\.([01])$}D', $line, $m) !== 1) {
            throw self::malformedRequestLine($line);
        }

        return [$m[1], $m[2], $m[3] === '0'];
    }

    private static function malformedRequestLine(string $line): BadWireRequest
    {
        if (str_contains($line, "\n")) {
            return self::bareLf();
        }
        if (preg_match('{^[' . self::TOKEN . ']+ (\S+) HTTP/1\.[01]$}D', $line, $m) === 1) {
            return new BadWireRequest(400, \sprintf('The request target "%s" holds a control character or a non-ASCII byte: percent-encode it in the path and query, and write an internationalized host in its xn-- (punycode) form.', addcslashes(substr($m[1], 0, 100), "\x00..\x1F\x7F..\xFF")));
        }

        return new BadWireRequest(400, \sprintf('Malformed request line "%s"; expected e.g. "POST https://api.example.com/x HTTP/1.1".', substr($line, 0, 100)));
    }

    /**
     * The field lines of a head, checked all at once by one regex (a token, a colon, a value
     * without control characters but HTAB), then split: one preg_match per line cost ~3 k
     * instructions each (callgrind). A block that fails the check is read line by line, for
     * the message naming the line. The same pass fills the header index, collects the
     * framing headers, and keeps the lines HeaderFilter::forUpstream() would keep (a second
     * pass over the lines cost ~6.8 k instructions per sync request); with a Connection line,
     * which may name more lines to drop, that is left to HeaderFilter (null).
     *
     * @return array{list<array{string, string}>, array<string, string>, list<string>, list<string>, list<array{string, string}>|null}
     *                                                                                            lines, index (HeaderIndex), Content-Length values, Transfer-Encoding values (lower-case), the lines for upstream
     *
     * @throws BadWireRequest
     */
    private static function headers(string $block, bool $keep): array
    {
        if (!$keep) {
            return $block === '' ? [[], [], [], [], []] : self::parseHeaders($block);
        }
        if (isset(self::$parsedBlocks[$block])) {
            return self::$parsedBlocks[$block];
        }
        if ($block === '') {
            return [[], [], [], [], []];
        }
        $parsed = self::parseHeaders($block);
        if (\strlen($block) <= self::BLOCK_BYTES_KEPT && self::seenBefore($block)) {
            if (\count(self::$parsedBlocks) >= self::BLOCKS_KEPT) {
                unset(self::$parsedBlocks[array_key_first(self::$parsedBlocks)]); // the oldest
            }
            self::$parsedBlocks[$block] = $parsed;
        }

        return $parsed;
    }

    /**
     * headers(), parsed.
     *
     * @return array{list<array{string, string}>, array<string, string>, list<string>, list<string>, list<array{string, string}>|null}
     *
     * @throws BadWireRequest
     */
    private static function parseHeaders(string $block): array
    {
        if (preg_match(self::FIELDS, $block) !== 1) {
            foreach (explode("\r\n", $block) as $line) {
                self::field($line, 'header');
            }

            throw new BadWireRequest(400, 'Malformed header lines.'); // not reached: field() names the line
        }
        $headers = $index = $lengths = $encodings = $upstream = [];
        $connection = false;
        foreach (explode("\r\n", $block) as $line) {
            // FIELDS matched: every line has its colon.
            $field = explode(':', $line, 2);
            $value = trim($field[1] ?? '', " \t");
            $headers[] = $header = [$field[0], $value];
            $lower = strtolower($field[0]);
            $index[$lower] ??= $value;
            if (!isset(HeaderFilter::HOP_BY_HOP[$lower])) {
                if (strncmp($lower, 'proxy-', 6) !== 0 && strncmp($lower, 'x-warmhttp-', 11) !== 0) {
                    $upstream[] = $header;
                }
            } elseif ($lower === 'content-length') {
                $lengths[] = $value;
            } elseif ($lower === 'transfer-encoding') {
                $encodings[] = strtolower($value);
            } elseif ($lower === 'connection') {
                $connection = true;
            }
        }

        return [$headers, $index, $lengths, $encodings, $connection ? null : $upstream];
    }

    /**
     * One field line (a header, or a chunked body's trailer).
     *
     * @return array{string, string}
     *
     * @throws BadWireRequest
     */
    public static function field(string $line, string $kind): array
    {
        if (preg_match('{^([' . self::TOKEN . ']+):[ \t]*([^\x00-\x08\x0A-\x1F\x7F]*?)[ \t]*$}D', $line, $m) !== 1) {
            throw str_contains($line, "\n") ? self::bareLf() : new BadWireRequest(400, \sprintf('Malformed %s line "%s".', $kind, substr($line, 0, 100)));
        }

        return [$m[1], $m[2]];
    }

    /**
     * @param list<string> $lengths   the Content-Length values
     * @param list<string> $encodings the Transfer-Encoding values, lower-case
     *
     * @return array{?int, bool} content length, chunked
     *
     * @throws BadWireRequest
     */
    private static function framing(array $lengths, array $encodings, int $maxBodyBytes, bool $http10, string $target): array
    {
        if ($encodings !== []) {
            return [null, self::chunked($encodings, $lengths, $http10)];
        }
        if ($lengths === []) {
            return [null, false];
        }
        // ctype_digit() and a length for the regex ^\d{1,15}$ it replaces (~1.5 k instructions a request).
        if ((\count($lengths) > 1 && \count(array_unique($lengths)) !== 1) || !ctype_digit($lengths[0]) || \strlen($lengths[0]) > 15) {
            throw new BadWireRequest(400, 'Invalid or conflicting Content-Length.');
        }
        $length = (int) $lengths[0];
        if ($length > $maxBodyBytes) {
            throw new BadWireRequest(413, \sprintf('The body (%d bytes) is larger than the relay accepts (--max-body=%d).', $length, $maxBodyBytes), $target);
        }

        return [$length, false];
    }

    /**
     * @param non-empty-list<string> $encodings
     * @param list<string> $lengths
     *
     * @throws BadWireRequest
     */
    private static function chunked(array $encodings, array $lengths, bool $http10): bool
    {
        // Both framings at once is the request-smuggling shape (RFC 9112 6.3): refuse it.
        if ($lengths !== [] || $encodings !== ['chunked']) {
            throw new BadWireRequest(400, 'Unsupported framing: only "Transfer-Encoding: chunked" alone, or Content-Length, is accepted.');
        }
        // RFC 9112 6.1: an HTTP/1.0 message with Transfer-Encoding has faulty framing.
        if ($http10) {
            throw new BadWireRequest(400, 'Transfer-Encoding on an HTTP/1.0 request: send HTTP/1.1, or a Content-Length.');
        }

        return true;
    }
}
