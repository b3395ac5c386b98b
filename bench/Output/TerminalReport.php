<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Output;

use Symfony\Component\Console\Helper\Table;
use Symfony\Component\Console\Output\OutputInterface;
use WarmHttp\Bench\Report;

/**
 * The results as one table per group, then the goals.
 *
 * @internal bench tooling
 */
final class TerminalReport
{
    public static function write(Report $report, OutputInterface $output): void
    {
        foreach ($report->byGroup() as $group => $rows) {
            $output->writeln(\sprintf('<info>%s</info> (%s)', $report->titles[$group] ?? $group, $group));
            $table = new Table($output);
            $table->setHeaders(Cells::header());
            foreach ($rows as $row) {
                $table->addRow(Cells::row($row));
            }
            $table->render();
            if ($rows[0]->limitFormula !== null) {
                $output->writeln(' limit = ' . $rows[0]->limitFormula . ' (first row; every row\'s formula is in the JSON)');
            }
            $output->writeln('');
        }
        $goals = new Table($output);
        $goals->setHeaders(['', 'goal', 'measured']);
        foreach ($report->goals as $goal) {
            $goals->addRow(Cells::goal($goal));
        }
        $goals->render();
    }
}
