<?php

declare(strict_types=1);

namespace WarmHttp\Bench;

use Symfony\Component\Console\Output\OutputInterface;
use WarmHttp\Bench\Target\Targets;

/**
 * What every group needs: the sizes, the targets, and where progress goes.
 *
 * @internal bench tooling
 */
final readonly class BenchContext
{
    public function __construct(
        public BenchConfig $config,
        public Targets $targets,
        public OutputInterface $progress,
    ) {}

    /**
     * Measures the selected scenarios of a group, each doing $shape's work on $serverMs paths.
     *
     * @param list<array{Scenario, Shape}> $scenarios
     *
     * @return list<Row>
     */
    public function measure(string $group, array $scenarios, float $serverMs): array
    {
        // On the rig the server time is ours to set; a user's endpoint has its own, measured.
        $network = $this->targets->onRig() ? $this->targets->network()->withServerMs($serverMs) : $this->targets->network();
        $trials = [];
        foreach ($scenarios as [$scenario, $shape]) {
            if ($this->config->selected($group . '/' . $scenario->name())) {
                $trials[] = new Trial($scenario, $shape, $this->config->path($serverMs), $network);
            }
        }

        return $trials === [] ? [] : (new Runner($this->targets, $this->config->repeat, $this->progress))->run($group, $trials);
    }

    /**
     * Rows for a group that cannot run against this target.
     *
     * @param list<Scenario> $scenarios
     *
     * @return list<Row>
     */
    public function skipAll(string $group, array $scenarios, string $reason): array
    {
        $rows = [];
        foreach ($scenarios as $scenario) {
            if ($this->config->selected($group . '/' . $scenario->name())) {
                $rows[] = Row::skipped($group, $scenario, $reason);
            }
        }

        return $rows;
    }
}
