<?php

declare(strict_types=1);

namespace WarmHttp\Internal\Decoding;

/**
 * Undoes one content coding a piece at a time, so a body is never held whole in its decoded
 * form: each call returns what the given bytes decode to (possibly nothing yet).
 *
 * @internal
 */
interface Decoder
{
    /** @throws DecodingFailed when the bytes are not in the coding the response announced */
    public function add(string $encoded): string;
}
