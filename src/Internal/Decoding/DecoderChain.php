<?php

declare(strict_types=1);

namespace WarmHttp\Internal\Decoding;

/**
 * Stacked codings (`Content-Encoding: gzip, br`), undone in the reverse of the order they were
 * applied: each decoder's output is the next one's input, a piece at a time.
 *
 * @internal
 */
final class DecoderChain implements Decoder
{
    /** @param non-empty-list<Decoder> $decoders outermost coding first */
    public function __construct(private readonly array $decoders) {}

    public function add(string $encoded): string
    {
        $bytes = $encoded;
        foreach ($this->decoders as $decoder) {
            $bytes = $decoder->add($bytes);
        }

        return $bytes;
    }
}
