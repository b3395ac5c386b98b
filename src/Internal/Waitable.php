<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

/**
 * Something a caller can wait for while the pool works: a transfer settling, or more of a
 * streamed body arriving. Fibers suspend with a list of these and resume when one is ready.
 *
 * @internal
 */
interface Waitable
{
    public function isReady(): bool;
}
