<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

/**
 * A journal entry this process holds the flock on, so no other process sends it meanwhile.
 * The lock goes with the open handle: release() (or the end of the process) lets it go.
 *
 * @internal
 */
final class FallbackLease
{
    /** @param resource $handle */
    public function __construct(
        public readonly string $name,
        public readonly FallbackEntry $entry,
        private $handle,
    ) {}

    public function __clone()
    {
        throw new \LogicException('A FallbackLease holds a lock and cannot be cloned.');
    }

    public function release(): void
    {
        if (\is_resource($this->handle)) {
            flock($this->handle, \LOCK_UN);
            fclose($this->handle);
        }
    }
}
