<?php

declare(strict_types=1);

namespace WarmHttp\Bench;

/**
 * A set of rows measured the same way (sequential, parallel, CPU, ...). The bench runs the
 * list in Group\Groups::defaults(); another measurement (the relay's dispatch latency, say)
 * is one more Group appended there, returning Rows with its own unit and extra numbers.
 *
 * @internal bench tooling
 */
interface Group
{
    /** Short id, first part of every row id ("seq" in "seq/warmhttp"). */
    public function name(): string;

    /** A heading for people, with the work done, e.g. "50 sequential GETs, one origin". */
    public function title(BenchContext $context): string;

    /** @return list<Row> */
    public function run(BenchContext $context): array;
}
