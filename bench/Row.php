<?php

declare(strict_types=1);

namespace WarmHttp\Bench;

/**
 * One line of the results: a scenario's time (min / median / max over the repeats), what it
 * cost on the wire, and its physical limit. Other groups (CPU, the relay's) reuse it with their
 * own unit and extra numbers.
 *
 * @internal bench tooling
 */
final readonly class Row
{
    public const OK = 'ok';
    public const SKIPPED = 'skipped';
    public const FAILED = 'failed';

    /**
     * @param array<string, float|int|string> $extra
     */
    public function __construct(
        public string $group,
        public string $name,
        public string $label,
        public string $status,
        public ?string $reason = null,
        public string $unit = 'ms',
        public ?float $min = null,
        public ?float $median = null,
        public ?float $max = null,
        public int $requests = 0,
        public ?int $connections = null,
        public ?int $tlsFull = null,
        public ?int $tlsResumed = null,
        public ?float $limit = null,
        public ?string $limitFormula = null,
        public array $extra = [],
    ) {}

    public static function skipped(string $group, Scenario $scenario, string $reason): self
    {
        return new self($group, $scenario->name(), $scenario->label(), self::SKIPPED, $reason);
    }

    public static function failed(string $group, Scenario $scenario, string $reason): self
    {
        return new self($group, $scenario->name(), $scenario->label(), self::FAILED, $reason);
    }

    /** @param array<mixed> $row one row of bench.json (toArray()) */
    public static function fromArray(array $row): self
    {
        $string = static fn(string $key): ?string => \is_scalar($row[$key] ?? null) ? (string) $row[$key] : null;
        $float = static fn(string $key): ?float => is_numeric($row[$key] ?? null) ? (float) $row[$key] : null;
        $int = static fn(string $key): ?int => is_numeric($row[$key] ?? null) ? (int) $row[$key] : null;
        $extra = [];
        foreach (\is_array($row['extra'] ?? null) ? $row['extra'] : [] as $key => $value) {
            if (\is_string($key) && (\is_int($value) || \is_float($value) || \is_string($value))) {
                $extra[$key] = $value;
            }
        }

        return new self(
            (string) $string('group'),
            (string) $string('name'),
            (string) $string('label'),
            $string('status') ?? self::FAILED,
            $string('reason'),
            $string('unit') ?? 'ms',
            $float('min'),
            $float('median'),
            $float('max'),
            $int('requests') ?? 0,
            $int('connections'),
            $int('tlsFull'),
            $int('tlsResumed'),
            $float('limit'),
            $string('limitFormula'),
            $extra,
        );
    }

    public function id(): string
    {
        return $this->group . '/' . $this->name;
    }

    public function ok(): bool
    {
        return $this->status === self::OK;
    }

    /** Median time over the physical limit: 1.00 is as fast as the network allows. */
    public function ratio(): ?float
    {
        return $this->median === null || $this->limit === null || $this->limit <= 0 ? null : $this->median / $this->limit;
    }

    /** @return array<string, mixed> */
    public function toArray(): array
    {
        /** @var array<string, mixed> $fields */
        $fields = get_object_vars($this);

        return $fields + ['ratio' => $this->ratio()];
    }
}
