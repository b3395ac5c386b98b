<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

/**
 * The relay could not be reached, or broke off before answering.
 *
 * @internal
 */
final class RelayUnreachable extends \RuntimeException
{
    /** @param string $reason the socket's own words when no connection could be made (nothing listens), else '' */
    public function __construct(string $message, public readonly string $reason = '')
    {
        parent::__construct($message);
    }
}
