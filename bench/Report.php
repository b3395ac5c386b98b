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

    /**
     * A report read back from its bench.json, to draw the chart and tables again (--render).
     *
     * @param array<mixed> $data
     */
    public static function fromArray(array $data): self
    {
        $list = static fn(string $key): array => \is_array($data[$key] ?? null) ? array_values(array_filter($data[$key], \is_array(...))) : [];
        /** @var array<string, mixed> $meta */
        $meta = \is_array($data['meta'] ?? null) ? $data['meta'] : [];
        /** @var array<string, string> $titles */
        $titles = \is_array($data['groups'] ?? null) ? array_filter($data['groups'], \is_string(...)) : [];
        $text = static fn(array $goal, string $key): string => \is_scalar($goal[$key] ?? null) ? (string) $goal[$key] : '';
        $goals = array_map(static fn(array $g): Goal => new Goal($text($g, 'goal'), $text($g, 'measured'), \is_bool($g['met'] ?? null) ? $g['met'] : null), $list('goals'));

        return new self($meta, $titles, array_map(Row::fromArray(...), $list('rows')), $goals);
    }

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
