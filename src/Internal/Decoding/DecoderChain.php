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

    /**
     * The decoder for a Content-Encoding list as sent (the last coding applied last), null when
     * nothing is to be undone.
     *
     * @param list<string>                    $codings lower-case, in the header's order
     * @param \Closure(string): (Decoder|null) $undo    one coding's decoder; null for identity
     *
     * @throws DecodingFailed more codings than any real server stacks
     */
    public static function undoing(array $codings, \Closure $undo): ?Decoder
    {
        if (\count($codings) > DecodingFailed::MAX_CODINGS) {
            throw DecodingFailed::tooManyCodings(\count($codings));
        }
        $decoders = [];
        foreach (array_reverse($codings) as $coding) {
            $decoder = $undo($coding);
            if ($decoder !== null) {
                $decoders[] = $decoder;
            }
        }

        return match (\count($decoders)) {
            0 => null,
            1 => $decoders[0],
            default => new self($decoders),
        };
    }

    public function add(string $encoded): string
    {
        $bytes = $encoded;
        foreach ($this->decoders as $decoder) {
            $bytes = $decoder->add($bytes);
        }

        return $bytes;
    }
}
