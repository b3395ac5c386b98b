<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Console;

use Symfony\Component\Console\Attribute\AsCommand;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Helper\Table;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Input\InputOption;
use Symfony\Component\Console\Output\OutputInterface;
use WarmHttp\Relay\RelayConfig;
use WarmHttp\Relay\Storage\SpoolReader;
use WarmHttp\Relay\Storage\SpoolUnavailable;

#[AsCommand(name: 'relay:failed', description: 'List the relay\'s dead letters with their last error')]
final class RelayFailedCommand extends Command
{
    protected function configure(): void
    {
        $this
            ->addOption('spool', null, InputOption::VALUE_REQUIRED, 'The relay\'s spool file', RelayConfig::DEFAULT_SPOOL)
            ->addOption('limit', null, InputOption::VALUE_REQUIRED, 'Show at most this many', '100')
            ->addOption('json', null, InputOption::VALUE_NONE, 'Print JSON');
    }

    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        try {
            $rows = SpoolReader::open(self::option($input, 'spool'))->deadLetters(max(1, (int) self::option($input, 'limit')));
        } catch (SpoolUnavailable|\PDOException $e) {
            $output->writeln('<error>' . $e->getMessage() . '</error>');

            return self::FAILURE;
        }
        if ($input->getOption('json')) {
            $output->writeln((string) json_encode($rows, \JSON_PRETTY_PRINT | \JSON_UNESCAPED_SLASHES));

            return self::SUCCESS;
        }
        if ($rows === []) {
            $output->writeln('No dead letters.');

            return self::SUCCESS;
        }
        $table = new Table($output);
        $table->setHeaders(['id', 'request', 'attempts', 'failed at', 'last error']);
        foreach ($rows as $row) {
            $table->addRow([$row['id'], $row['method'] . ' ' . $row['uri'], $row['attempts'], date('Y-m-d H:i:s', (int) $row['failed_at']), $row['last_error']]);
        }
        $table->render();
        $output->writeln('Requeue with: warmhttp relay:retry ID... (or --all)');

        return self::SUCCESS;
    }

    private static function option(InputInterface $input, string $name): string
    {
        $value = $input->getOption($name);

        return \is_string($value) ? $value : '';
    }
}
