<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Wire;

use WarmHttp\Internal\MalformedResponse;
use WarmHttp\Internal\ResponseParser;

/**
 * A destination's answer head as a sync caller gets it: the field lines the caller may see
 * (HeaderFilter's rules for an answer), written out as they go on the caller's socket, and
 * what the relay needs to frame the body again (BodyFraming): the Content-Length values, and
 * whether there was a Transfer-Encoding.
 *
 * From the head curl received (received()) the status line is read and the head refused as
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
     * @param string $fields field lines that passed HEAD, CRLF after each
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
     * Why ResponseParser refuses this block (the status line first, then the fields), in its
     * words: the slow path, taken only for a head HEAD did not match.
     */
    private static function refusal(string $block): MalformedResponse
    {
        $eol = (int) strpos($block, "\r\n");
        try {
            ResponseParser::checkHead(substr($block, 0, $eol), substr($block, $eol + 2, -2));
        } catch (MalformedResponse $e) {
            return $e;
        }

        return new MalformedResponse('the response has a malformed head');
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
