<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Wire;

/**
 * What came on the relay socket is not a request the relay accepts; carries the status to answer
 * with. The connection is closed after the answer: its byte stream can no longer be trusted.
 *
 * @internal
 */
final class BadWireRequest extends \RuntimeException
{
    public function __construct(public readonly int $status, string $message)
    {
        parent::__construct($message);
    }
}
