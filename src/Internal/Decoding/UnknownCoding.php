<?php

declare(strict_types=1);

namespace WarmHttp\Internal\Decoding;

/**
 * A coding nothing here can undo. Like libcurl, it fails only when body bytes arrive: a HEAD,
 * 204 or 304 answer that names it has nothing to decode and goes through.
 *
 * @internal
 */
final class UnknownCoding implements Decoder
{
    public function __construct(private readonly DecodingFailed $failure) {}

    public function add(string $encoded): string
    {
        if ($encoded === '') {
            return '';
        }

        throw $this->failure;
    }
}
