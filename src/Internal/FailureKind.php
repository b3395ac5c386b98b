<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

/**
 * What kind of failure ended a transfer; each caller turns it into its own error (the Client
 * into a PSR-18 exception, the relay into a retry decision or an answer status).
 *
 * @internal
 */
enum FailureKind
{
    /** The request itself was wrong (too many redirects, a refused redirect): sending it again cannot help. */
    case Request;

    /** The network or the server failed: worth another try later. */
    case Network;

    /** No connection or no complete answer within the time allowed. */
    case Timeout;

    /** The response body was larger than allowed and was cut off. */
    case TooLarge;
}
