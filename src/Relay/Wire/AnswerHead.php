<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Wire;

use WarmHttp\Internal\MalformedResponse;

/**
 * A destination's answer head as a sync caller gets it: the field lines the caller may see
 * (HeaderFilter's rules for an answer), written out as they go on the caller's socket, and
 * what the relay needs to frame the body again (BodyFraming): the Content-Length values, and
 * whether there was a Transfer-Encoding.
 *
 From the head curl received (received()) the status line is read and the head refused as
 * ResponseParser refuses one, with its words: checked once, here, rather than by ResponseParser
 * and again by the filter pass. The lines are then copied through one filter pass: a regex
 * drops the lines the caller must not see, with no PSR-7 round trip (split into a name =>
 * values map, filtered, joined again: ~50 k instructions per answer) and no PHP loop per line
 * (~27 k); ~12 k with it (callgrind).
 *
 * @internal
 */
final class AnswerHead
{
    /** Field lines, CRLF after each, as ResponseParser accepts them (RFC 9110 5.5). */
    private const FIELDS = '/\A(?:[!#$%&\'*+\-.^_`|~0-9A-Za-z]+:[ \t\x21-\x7E\x80-\xFF]*\r\n)*\z/';

    /**
     * A final head's status line and field lines (CRLF after each) as ResponseParser accepts
     * them, in one pass: version, status 100-599, a reason without control characters (HTAB
     * aside) after one or more spaces, or none.
     */
    private const HEAD = '/\AHTTP\/(1\.[01]|[23]) ([1-5]\d\d)(?: +([\t\x20-\x7E\x80-\xFF]*))?\r\n((?:[!#$%&\'*+\-.^_`|~0-9A-Za-z]+:[ \t\x21-\x7E\x80-\xFF]*\r\n)*)\z/';

    /**
     * The lines HeaderFilter::answer() drops by name: HeaderFilter::HOP_BY_HOP, Proxy-*,
     * X-WarmHttp-*; with each one's name and value (the framing ones are read).
     */
    private const DROPPED = '/^(connection|keep-alive|te|trailer|transfer-encoding|upgrade|content-length|expect|host|proxy-[^:]*|x-warmhttp-[^:]*):[ \t]*([^\r]*?)[ \t]*\r\n/mi';

    private const BARE_LF = 'the response head has a line ended by a bare LF instead of CRLF';

    /** Heads kept read (received()), and the longest one kept. */
    private const KEPT = 64;

    private const KEPT_BYTES = 2048;

    /**
     * Heads received() read, by their bytes. A destination answers one endpoint with the same
     * head until its Date line turns (nginx: once a second). Reading one took ~26 us on caches
     * gone cold while the front waited for the answer (1.6 us warm); in the front, its head
     * to its answer's took 28-30 us, 9-14 us with this (p50), ~11 k instructions less per sync
     * request (callgrind, 20 ms RTT, ~40 requests a second).
     *
     * @var array<string, self>
     */
    private static array $kept = [];

    /** Control characters a reason phrase must not hold (RFC 9112 4: HTAB, SP, VCHAR, obs-text). */
    private const REASON_CTL = "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0A\x0B\x0C\x0D\x0E\x0F\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1A\x1B\x1C\x1D\x1E\x1F\x7F";

    /**
     * @param string       $block          "Name: value\r\n" lines for the caller, or ''
     * @param list<string> $contentLengths as the destination sent them
     *
     * Plain properties marked @readonly, not native readonly ones: one is made per sync answer,
     * and PHP 8.2 writes native readonly properties on the VM's slow path.
     */
    private function __construct(
        /** @readonly */
        public string $block,
        /** @readonly */
        public array $contentLengths,
        /** @readonly */
        public bool $transferEncoding,
        /** @readonly 0 unless made by received() or given to fromHeaders() */
        public int $status = 0,
        /** @readonly "1.1", "2"...; '' unless made by received() or given to fromHeaders() */
        public string $version = '',
        /** @readonly '' for none (HTTP/2) */
        public string $reason = '',
        /** @readonly the field lines as received, CRLF between them (no filter): the PSR-7 answer's */
        public string $fields = '',
    ) {}

    /**
     * The head curl received (with 1xx heads before it, the last block is the answer's),
     * checked as ResponseParser checks it: the same heads are refused, with the same words.
     *
     * @throws MalformedResponse
     */
    public static function received(string $raw): self
    {
        return self::$kept[$raw] ?? self::keep($raw, self::read($raw));
    }

    private static function keep(string $raw, self $head): self
    {
        if (\strlen($raw) <= self::KEPT_BYTES) {
            if (\count(self::$kept) >= self::KEPT) {
                unset(self::$kept[array_key_first(self::$kept)]); // the oldest
            }
            self::$kept[$raw] = $head;
        }

        return $head;
    }

    /** @throws MalformedResponse */
    private static function read(string $raw): self
    {
        $head = rtrim($raw);
        $last = strrpos($head, "\r\n\r\n");
        $block = ($last === false ? $head : substr($head, $last + 4)) . "\r\n";
        if (preg_match(self::HEAD, $block, $parts) !== 1) {
            throw self::refusal($block);
        }
        [, $version, $status, $reason, $fields] = $parts;

        return self::filtered($fields, (int) $status, $version, $reason);
    }

    /**
     * The lines the caller may see, copied between the dropped ones: one regex finds those and
     * reads the framing ones' values as it goes (a second pass for the framing lines and a
     * preg_replace cost ~2 k instructions more, callgrind).
     *
     * @param string $fields field lines that passed FIELDS, CRLF after each
     */
    private static function filtered(string $fields, int $status = 0, string $version = '', string $reason = ''): self
    {
        $lengths = $named = [];
        $transferEncoding = false;
        $kept = '';
        $at = 0;
        preg_match_all(self::DROPPED, $fields, $dropped, \PREG_SET_ORDER | \PREG_OFFSET_CAPTURE);
        foreach ($dropped as [[$line, $start], [$name], [$value]]) {
            $kept .= substr($fields, $at, $start - $at);
            $at = $start + \strlen($line);
            match (strtolower($name)) {
                'content-length' => $lengths[] = $value,
                'transfer-encoding' => $transferEncoding = true,
                'connection' => $named += HeaderFilter::namedByConnection($value),
                default => null,
            };
        }
        $kept = $at === 0 ? $fields : $kept . substr($fields, $at);
        if ($named !== []) {
            $kept = (string) preg_replace('/^(?:' . implode('|', array_map(static fn(string $name): string => preg_quote($name, '/'), array_keys($named))) . '):[^\r]*\r\n/mi', '', $kept);
        }

        return new self($kept, $lengths, $transferEncoding, $status, $version, $reason, $fields === '' ? '' : substr($fields, 0, -2));
    }

    /**
     * Why ResponseParser would refuse this block (the status line first, then the fields), in
     * its words.
     */
    private static function refusal(string $block): MalformedResponse
    {
        $eol = (int) strpos($block, "\r\n");
        try {
            self::statusLine(substr($block, 0, $eol));
        } catch (MalformedResponse $e) {
            return $e;
        }

        return self::malformedField(substr($block, $eol + 2, -2));
    }

    /**
     * "HTTP/1.1 200 OK", "HTTP/2 200 ": split by hand, as ResponseParser does.
     *
     * @return array{string, int, string} version, status, reason
     *
     * @throws MalformedResponse
     */
    private static function statusLine(string $line): array
    {
        $space = strpos($line, ' ');
        $version = $space === false ? '' : substr($line, 5, $space - 5);
        $code = $space === false ? '' : substr($line, $space + 1, 3);
        $rest = (string) substr($line, $space + 4);
        if (!str_starts_with($line, 'HTTP/') || !\in_array($version, ['1.0', '1.1', '2', '3'], true)
            || \strlen($code) !== 3 || !ctype_digit($code) || ($rest !== '' && $rest[0] !== ' ')) {
            throw new MalformedResponse('the response has a malformed status line ' . json_encode(substr($line, 0, 80)));
        }
        $status = (int) $code;
        if ($status < 100 || $status > 599) {
            throw new MalformedResponse(\sprintf('the response has status %s, outside 100-599', $code));
        }
        // libcurl 7.88 passes a CR inside the status line on, and accepts lines ended by a bare
        // LF (the whole head then lands in the reason): written back to a caller, either would
        // start headers of the destination's choosing.
        if ($rest !== '' && !ctype_print($rest) && strcspn($rest, self::REASON_CTL) !== \strlen($rest)) {
            throw new MalformedResponse(str_contains($rest, "\n")
                ? self::BARE_LF
                : 'the response has a control character in its status line ' . json_encode(substr($line, 0, 80)));
        }

        return [$version, $status, ltrim($rest, ' ')];
    }

    /** Why a field block failed FIELDS, in ResponseParser's words. */
    private static function malformedField(string $fields): MalformedResponse
    {
        foreach (explode("\r\n", $fields) as $line) {
            if (str_contains($line, "\n")) {
                return new MalformedResponse(self::BARE_LF);
            }
            if (preg_match(self::FIELDS, $line . "\r\n") !== 1) {
                return new MalformedResponse('the response has a malformed header line ' . json_encode(substr($line, 0, 80)));
            }
        }

        return new MalformedResponse('the response has a malformed header line');
    }

    /**
     * From a PSR-7 response's headers (an outcome that did not come through UpstreamExchange).
     *
     * @param array<array-key, array<array-key, string>> $headers
     */
    public static function fromHeaders(array $headers, int $status = 0, string $version = '', string $reason = ''): self
    {
        $fields = [];
        foreach ($headers as $name => $values) {
            foreach ($values as $value) {
                $fields[] = [(string) $name, $value];
            }
        }

        return self::fromFields($fields, $status, $version, $reason);
    }

    /**
     * The lines kept, as name and value.
     *
     * @return list<array{string, string}>
     */
    public function lines(): array
    {
        $lines = [];
        foreach ($this->block === '' ? [] : explode("\r\n", rtrim($this->block, "\r\n")) as $line) {
            [$name, $value] = self::field($line);
            $lines[] = [$name, trim($value, " \t")];
        }

        return $lines;
    }

    /** @return array{string, string} name and value; a line without a colon is no field: an empty name, dropped */
    private static function field(string $line): array
    {
        $field = explode(':', $line, 2);

        return isset($field[1]) ? [$field[0], $field[1]] : ['', ''];
    }

    /** @param list<array{string, string}> $fields */
    private static function fromFields(array $fields, int $status = 0, string $version = '', string $reason = ''): self
    {
        [$kept, $lengths, $transferEncoding] = HeaderFilter::answer($fields);
        $block = '';
        foreach ($kept as [$name, $value]) {
            $block .= $name . ': ' . $value . "\r\n";
        }

        return new self($block, $lengths, $transferEncoding, $status, $version, $reason);
    }
}
