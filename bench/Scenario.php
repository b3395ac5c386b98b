<?php

declare(strict_types=1);

namespace WarmHttp\Bench;

/**
 * One way of calling HTTP from PHP (a raw curl pattern, a peer library, a WarmHttp API).
 * open() builds the strategy's client state from nothing, so a run that starts with open()
 * pays what a fresh process pays; the closure it returns sends a batch of URLs with that state,
 * and can be called again to measure warm requests.
 *
 * @internal bench tooling
 */
interface Scenario
{
    /** Stable id used in JSON, --only and the chart, e.g. "curl-naive". */
    public function name(): string;

    /** What a person reads in the table, e.g. "new curl handle per request". */
    public function label(): string;

    /** Why this scenario cannot run here (a peer library missing), or null when it can. */
    public function unavailableReason(): ?string;

    /**
     * @return \Closure(string...): void sends every URL given (in the strategy's own order and
     *                                  concurrency); throws BenchException on any failure
     */
    public function open(Tls $tls): \Closure;
}
