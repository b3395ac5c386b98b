<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

/**
 * What each hand-off loses when its process is killed with SIGKILL (kill -9, the OOM killer),
 * said beside the rows that compare them: a fast hand-off that forgets is not the same thing.
 *
 * @internal bench tooling
 */
final class KillNine
{
    /** The 202 follows the journal append (spool-sync=normal survives the process, full survives power loss). */
    public const RELAY = 'nothing it answered 202 for: the journal holds it and the next relay delivers it';
    /** forwarder.js keeps nothing but memory, and its caller closed the socket without reading the answer. */
    public const NODE = 'every request it took and had not yet delivered, unnoticed: it keeps them only in memory and its callers never read an answer';
}
