<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Wire;

/**
 * A destination's answer head as a sync caller gets it: the field lines the caller may see
 * (HeaderFilter's rules for an answer), written out as they go on the caller's socket, and
 * what the relay needs to frame the body again (BodyFraming): the Content-Length values, and
 * whether there was a Transfer-Encoding.
 *
 * From the head curl received (fromRaw) the lines are copied through one filter pass: a regex
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

    /** The lines HeaderFilter::answer() drops by name: HeaderFilter::HOP_BY_HOP, Proxy-*, X-WarmHttp-*. */
    private const DROPPED = '/^(?:connection|keep-alive|te|trailer|transfer-encoding|upgrade|content-length|expect|host|proxy-[^:]*|x-warmhttp-[^:]*):[^\r]*\r\n/mi';

    /** The framing lines, read before they are dropped. */
    private const FRAMING = '/^(content-length|transfer-encoding|connection):[ \t]*([^\r]*?)[ \t]*\r$/mi';

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
    ) {}

    /**
     * From the head bytes curl received, already checked by ResponseParser (or nghttp2):
     * with 1xx answers before it, the last block is the answer's, as ResponseParser reads it.
     * The block is checked again here, once, so the filter pass can copy lines as they are; a
     * block that fails goes through the per-line checks, which drop what would break the framing.
     */
    public static function fromRaw(string $raw): self
    {
        $head = rtrim($raw);
        $last = strrpos($head, "\r\n\r\n");
        $block = $last === false ? $head : substr($head, $last + 4);
        $eol = strpos($block, "\r\n");
        if ($eol === false) {
            return new self('', [], false);
        }
        $fields = substr($block, $eol + 2) . "\r\n";
        if (preg_match(self::FIELDS, $fields) !== 1) {
            return self::fromFields(array_map(self::field(...), explode("\r\n", rtrim($fields))));
        }
        $lengths = $named = [];
        $transferEncoding = false;
        preg_match_all(self::FRAMING, $fields, $framing, \PREG_SET_ORDER);
        foreach ($framing as [, $name, $value]) {
            match (strtolower($name)) {
                'content-length' => $lengths[] = $value,
                'transfer-encoding' => $transferEncoding = true,
                default => $named += HeaderFilter::namedByConnection($value),
            };
        }
        $kept = (string) preg_replace(self::DROPPED, '', $fields);
        if ($named !== []) {
            $kept = (string) preg_replace('/^(?:' . implode('|', array_map(static fn(string $name): string => preg_quote($name, '/'), array_keys($named))) . '):[^\r]*\r\n/mi', '', $kept);
        }

        return new self($kept, $lengths, $transferEncoding);
    }

    /**
     * From a PSR-7 response's headers (an outcome that did not come through UpstreamExchange).
     *
     * @param array<array-key, array<array-key, string>> $headers
     */
    public static function fromHeaders(array $headers): self
    {
        $fields = [];
        foreach ($headers as $name => $values) {
            foreach ($values as $value) {
                $fields[] = [(string) $name, $value];
            }
        }

        return self::fromFields($fields);
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
    private static function fromFields(array $fields): self
    {
        [$kept, $lengths, $transferEncoding] = HeaderFilter::answer($fields);
        $block = '';
        foreach ($kept as [$name, $value]) {
            $block .= $name . ': ' . $value . "\r\n";
        }

        return new self($block, $lengths, $transferEncoding);
    }
}
