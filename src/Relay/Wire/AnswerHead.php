<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Wire;

/**
 * A destination's answer head as a sync caller gets it, made in one pass over its field lines:
 * the lines the caller may see (HeaderFilter's rules for an answer), and what the relay needs
 * to frame the body again (BodyFraming): the Content-Length values, and whether there was a
 * Transfer-Encoding. Made from the head curl received, it skips the PSR-7 round trip (split
 * into a name => values map, filtered, joined again), ~40 k instructions per sync answer
 * (callgrind).
 *
 * @internal
 */
final class AnswerHead
{
    /**
     * @param list<array{string, string}> $lines          for the caller
     * @param list<string>                $contentLengths as the destination sent them
     */
    private function __construct(
        public readonly array $lines,
        public readonly array $contentLengths,
        public readonly bool $transferEncoding,
    ) {}

    /**
     * From the head bytes curl received, already checked by ResponseParser (or nghttp2):
     * with 1xx answers before it, the last block is the answer's, as ResponseParser reads it.
     */
    public static function fromRaw(string $raw): self
    {
        $head = rtrim($raw);
        $last = strrpos($head, "\r\n\r\n");
        $block = $last === false ? $head : substr($head, $last + 4);
        $eol = strpos($block, "\r\n");
        if ($eol === false) {
            return new self([], [], false);
        }
        $fields = [];
        foreach (explode("\r\n", substr($block, $eol + 2)) as $line) {
            $colon = strpos($line, ':');
            if ($colon !== false) {
                $fields[] = [substr($line, 0, $colon), trim(substr($line, $colon + 1), " \t")];
            }
        }

        return self::of($fields);
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

        return self::of($fields);
    }

    /** @param list<array{string, string}> $fields */
    private static function of(array $fields): self
    {
        [$lines, $lengths, $transferEncoding] = HeaderFilter::answer($fields);

        return new self($lines, $lengths, $transferEncoding);
    }
}
