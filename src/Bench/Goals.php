<?php

declare(strict_types=1);

namespace WarmHttp\Bench;

/**
 * The goals from the core, concurrency and relay issues, checked on a run's rows.
 *
 * @internal bench tooling
 */
final class Goals
{
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
     * @param list<Row> $rows
     *
     * @return list<Goal>
     */
    public static function check(array $rows): array
    {
        $goals = new self($rows);

        return [
            $goals->ratio('seq/warmhttp', 1.05, 'WarmHttp sequential within 1.05× of the physical limit', 'seq/curl-reused'),
            $goals->ratio('par/warmhttp-sendall-h2', 1.3, 'WarmHttp parallel HTTP/2 within 1.3× of the physical limit', 'par/curl-multi-share-h2'),
            $goals->cpu('cpu/warmhttp', 'cpu/curl-reused', 1.25, 'WarmHttp CPU per request within 1.25× of a raw reused curl handle'),
            $goals->cpu('cpu/guzzle-one-client', 'cpu/warmhttp', 1.5, 'WarmHttp ≥ 1.5× less CPU per request than Guzzle', true),
            $goals->cpu('cpu/symfony', 'cpu/warmhttp', 1.5, 'WarmHttp ≥ 1.5× less CPU per request than Symfony HttpClient', true),
            $goals->speedup('conc/warmhttp', 'conc/warmhttp-concurrently', 'concurrently() against the same work sequential'),
            ...RelayGoals::check($goals->rows),
        ];
    }

    private function ratio(string $id, float $target, string $goal, string $floor): Goal
    {
        $row = $this->rows[$id] ?? null;
        $ratio = $row?->ratio();
        if (null === $row || null === $ratio) {
            return new Goal($goal, 'not measured', null);
        }
        $floorRatio = ($this->rows[$floor] ?? null)?->ratio();
        $measured = \sprintf('%.3f× (%.1f ms vs limit %.1f ms)', $ratio, $row->median, $row->limit);
        if (null !== $floorRatio) {
            $measured .= \sprintf('; raw curl on the same rig: %.3f×', $floorRatio);
        }

        return new Goal($goal, $measured, $ratio <= $target);
    }

    private function cpu(string $id, string $base, float $target, string $goal, bool $atLeast = false): Goal
    {
        if (!isset($this->rows[$id], $this->rows[$base])) {
            return new Goal($goal, 'not measured', null);
        }
        $ratio = (float) $this->rows[$id]->median / max(0.001, (float) $this->rows[$base]->median);
        $measured = \sprintf('%.2f× (%.0f µs vs %.0f µs)', $ratio, $this->rows[$id]->median, $this->rows[$base]->median);

        return new Goal($goal, $measured, $atLeast ? $ratio >= $target : $ratio <= $target);
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
