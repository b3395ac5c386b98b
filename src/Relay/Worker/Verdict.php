<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Worker;

/**
 * What becomes of a spooled request after one delivery attempt.
 *
 * @internal
 */
enum Verdict
{
    /** The destination answered with a status below 400 (or with a body too large to read): done. */
    case Delivered;

    /** Worth another attempt later: a network error, a timeout, 408, 429 or a 5xx. */
    case Retry;

    /** Never to be attempted again: moved to the dead letters, with the reason. */
    case Dead;
}
