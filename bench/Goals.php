<?php

declare(strict_types=1);

namespace WarmHttp\Bench;

use WarmHttp\Bench\Relay\RelaySpec;

/**
 * The goals from the core, concurrency and relay issues, checked on a run's rows.
 *
 * @internal bench tooling
 */
final class Goals
{
    /** The sequential goal: WarmHttp's time within this × the physical limit. */
    public const SEQUENTIAL_RATIO = 1.05;
    /** The parallel HTTP/2 goal. */
    public const PARALLEL_RATIO = 1.3;
    /** The CPU goals (issue 16): instructions per warm request, and CPU time, over a raw reused curl handle's. */
    public const CPU_INSTRUCTIONS_RATIO = 1.2;
    public const CPU_TIME_RATIO = 1.15;

    /** @var array<string, Row> */
    private array $rows = [];

    /** @param list<Row> $rows */
    private function __construct(array $rows)
    {
        foreach ($rows as $row) {
            if ($row->ok()) {
                $this->rows[$row->id()] = $row;
            }
        }
    }

    /**
     * The goals of the groups this run measured: a group left out (by --only or a preset) has
     * no goal in the report rather than a row of "not measured".
     *
     * @param list<Row> $rows
     *
     * @return list<Goal>
     */
    public static function check(array $rows): array
    {
        $goals = new self($rows);
        $byGroup = [
            'seq' => [$goals->ratio('seq/warmhttp', self::SEQUENTIAL_RATIO, 'WarmHttp sequential within 1.05× of the physical limit', 'seq/curl-reused')],
            'par' => [$goals->ratio('par/warmhttp-sendall-h2', self::PARALLEL_RATIO, 'WarmHttp parallel HTTP/2 within 1.3× of the physical limit', 'par/curl-multi-share-h2')],
            'cpu' => [
                $goals->instructions('cpu/warmhttp', 'cpu/curl-reused', self::CPU_INSTRUCTIONS_RATIO, 'WarmHttp instructions per request ≤ 1.20× a raw reused curl handle (callgrind)'),
                $goals->cpu('cpu/warmhttp', 'cpu/curl-reused', self::CPU_TIME_RATIO, 'WarmHttp CPU time per request ≤ 1.15× a raw reused curl handle'),
                $goals->cpu('cpu/guzzle-one-client', 'cpu/warmhttp', 1.5, 'WarmHttp ≥ 1.5× less CPU per request than Guzzle', true),
                $goals->cpu('cpu/symfony', 'cpu/warmhttp', 1.5, 'WarmHttp ≥ 1.5× less CPU per request than Symfony HttpClient', true),
            ],
            'conc' => [$goals->speedup('conc/warmhttp', 'conc/warmhttp-concurrently', 'concurrently() against the same work sequential')],
            RelaySpec::GROUP => RelayGoals::check($goals->rows),
        ];
        $measured = array_fill_keys(array_map(static fn(Row $row): string => $row->group, $rows), true);

        return array_merge(...array_values(array_intersect_key($byGroup, $measured)));
    }

    private function ratio(string $id, float $target, string $goal, string $floor): Goal
    {
        $row = $this->rows[$id] ?? null;
        $ratio = $row?->ratio();
        if ($row === null || $ratio === null) {
            return new Goal($goal, 'not measured', null);
        }
        $floorRatio = ($this->rows[$floor] ?? null)?->ratio();
        $measured = \sprintf('%.3f× (%.1f ms vs limit %.1f ms)', $ratio, $row->median, $row->limit);
        if ($floorRatio !== null) {
            $measured .= \sprintf('; raw curl on the same rig: %.3f×', $floorRatio);
        }

        return new Goal($goal, $measured, $ratio <= $target);
    }

    private function cpu(string $id, string $base, float $target, string $goal, bool $atLeast = false): Goal
    {
        if (!isset($this->rows[$id], $this->rows[$base])) {
            return new Goal($goal, 'not measured', null);
        }
        $own = $this->rows[$id]->extra['vsRawCurl'] ?? null;
        $other = $this->rows[$base]->extra['vsRawCurl'] ?? null;
        if ((\is_float($own) || \is_int($own)) && (\is_float($other) || \is_int($other)) && $other > 0) {
            // Each row's ratio to the raw handle is the median of its per-round ratios (CpuGroup,
            // PairedRatios): steadier than a ratio of the rows' medians, which one noisy round moves.
            $ratio = $own / $other;
            $measured = \sprintf('%.2f× (median of per-round ratios; %.0f µs vs %.0f µs)', $ratio, $this->rows[$id]->median, $this->rows[$base]->median);
        } else {
            $ratio = (float) $this->rows[$id]->median / max(0.001, (float) $this->rows[$base]->median);
            $measured = \sprintf('%.2f× (%.0f µs vs %.0f µs)', $ratio, $this->rows[$id]->median, $this->rows[$base]->median);
        }

        return new Goal($goal, $measured, $atLeast ? $ratio >= $target : $ratio <= $target);
    }

    /** Judged on the rows' callgrind counts (CpuGroup), which hold still on a loaded machine. */
    private function instructions(string $id, string $base, float $target, string $goal): Goal
    {
        $own = $this->rows[$id]->extra['kIrPerRequest'] ?? null;
        $curl = ($this->rows[$base] ?? null)?->extra['kIrPerRequest'] ?? null;
        if (!\is_float($own) && !\is_int($own) || !\is_float($curl) && !\is_int($curl) || $curl <= 0) {
            $why = ($this->rows[$id] ?? null)?->extra['note'] ?? null;

            return new Goal($goal, \is_string($why) && str_starts_with($why, 'instructions not counted') ? $why : 'not measured', null);
        }
        $ratio = $own / $curl;

        return new Goal($goal, \sprintf('%.2f× (%.1f k vs %.1f k instructions per request)', $ratio, $own, $curl), $ratio <= $target);
    }

    private function speedup(string $slow, string $fast, string $goal): Goal
    {
        if (!isset($this->rows[$slow], $this->rows[$fast])) {
            return new Goal($goal, 'not measured', null);
        }
        $speedup = (float) $this->rows[$slow]->median / max(0.001, (float) $this->rows[$fast]->median);

        return new Goal($goal, \sprintf('%.1f× faster (%.0f ms vs %.0f ms)', $speedup, $this->rows[$fast]->median, $this->rows[$slow]->median), $speedup > 1.0);
    }
}
