<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Outbound;

use Psr\Http\Client\ClientExceptionInterface;
use WarmHttp\Internal\FailureKind;

/**
 * An outgoing request of the relay failed: the kind decides a delivery's retry and a sync
 * answer's status (504 for a timeout, 502 otherwise); the message says what happened.
 *
 * @internal
 */
final class UpstreamFailure extends \RuntimeException implements ClientExceptionInterface
{
    public function __construct(public readonly FailureKind $kind, string $message, int $curlErrno = 0)
    {
        parent::__construct($message, $curlErrno);
    }
}
