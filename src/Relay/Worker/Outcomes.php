<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Worker;

/**
 * Delivery results gathered during one loop iteration, written to the spool in one transaction.
 *
 * @internal
 */
final class Outcomes
{
    /** @var list<int> */
    public array $delivered = [];

    /** @var array<int, array{float, int, string}> id => next attempt at, attempts so far, last error */
    public array $retries = [];

    /** @var array<int, array{int, string}> id => attempts, last error */
    public array $dead = [];

    public function isEmpty(): bool
    {
        return $this->delivered === [] && $this->retries === [] && $this->dead === [];
    }
}
