<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use WarmHttp\Bench\BenchContext;
use WarmHttp\Bench\Row;

/**
 * One measurement of the relay group, giving one or more rows (the FPM ones compare two
 * endpoints in one interleaved run, so they come together).
 *
 * @internal bench tooling
 */
interface RelayMeasurement
{
    /** @return non-empty-list<RelaySpec> */
    public function specs(BenchContext $context): array;

    /** What is missing on this machine to measure it (as the skip reason), or null. */
    public function missing(): ?string;

    /**
     * @return list<Row> a row for each spec
     *
     * @throws \Throwable every row then reports it as failed
     */
    public function measure(BenchContext $context, RelaySizes $sizes): array;
}
