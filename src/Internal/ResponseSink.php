<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

/**
 * Where a transfer's response body goes.
 *
 * @internal
 */
enum ResponseSink
{
    /** Held in memory (under `max_response_bytes` when set) and handed over whole. */
    case Buffered;

    /** Into a bounded BodyBuffer as it arrives; the transfer settles once the head is in. */
    case Streamed;

    /** To /dev/null: only the status and Retry-After are kept (relay deliveries). */
    case Discarded;
}
