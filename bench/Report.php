<?php

declare(strict_types=1);

namespace WarmHttp\Bench;

/**
 * Everything one bench run produced: where and how it ran, the rows by group, the goals.
 *
 * @internal bench tooling
 */
final readonly class Report
{
    /**
     * @param array<string, mixed>  $meta
     * @param array<string, string> $titles group => heading
     * @param list<Row>             $rows
     * @param list<Goal>            $goals
     */
    public function __construct(
        public array $meta,
        public array $titles,
        public array $rows,
        public array $goals,
    ) {}

    /** @return array<string, list<Row>> rows by group, in run order */
    public function byGroup(): array
    {
        $groups = [];
        foreach ($this->rows as $row) {
            $groups[$row->group][] = $row;
        }

        return $groups;
    }

    /** @return array<string, mixed> */
    public function toArray(): array
    {
        return [
            'meta' => $this->meta,
            'groups' => $this->titles,
            'rows' => array_map(static fn(Row $row): array => $row->toArray(), $this->rows),
            'goals' => array_map(static fn(Goal $goal): array => $goal->toArray(), $this->goals),
        ];
    }
}
