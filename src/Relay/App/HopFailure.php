<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

use WarmHttp\Internal\CurlErrors;
use WarmHttp\Internal\Failure;

/**
 * A relay_sync exchange over the kept stream that ended without an answer, and how far it got:
 * whether the relay may have received the request decides whether it can be sent again.
 *
 * @internal
 */
final class HopFailure extends \RuntimeException
{
    public function __construct(
        public readonly Failure $failure,
        /** Nothing of the answer arrived: the connection may have died before the relay read the request. */
        public readonly bool $unanswered = false,
    ) {
        parent::__construct($failure->what);
    }

    /** A libcurl error the curl hop reports for the same thing, in CurlErrors' words. */
    public static function curl(int $errno, string $curlMessage, ?int $maxResponseBytes = null, bool $unanswered = false): self
    {
        return new self(CurlErrors::classify($errno, $curlMessage, [], $maxResponseBytes), $unanswered);
    }
}
