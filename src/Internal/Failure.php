<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

/**
 * Why a transfer failed, in words a user can act on, before any caller's error type is chosen.
 *
 * @internal
 */
final readonly class Failure
{
    /** @param string $what completes "METHOD URL failed: …" */
    public function __construct(
        public FailureKind $kind,
        public string $what,
        public int $curlErrno = 0,
    ) {}
}
