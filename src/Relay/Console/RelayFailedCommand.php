<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Console;

use Symfony\Component\Console\Attribute\AsCommand;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Helper\Table;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Input\InputOption;
use Symfony\Component\Console\Output\OutputInterface;
use WarmHttp\Console\CommandOutput;
use WarmHttp\Console\OutputFormat;
use WarmHttp\Console\UsageError;
use WarmHttp\Relay\Storage\SpoolInspector;

/**
 * `--format=json` prints one array of dead letters, oldest first, each
 * {id, method, uri, attempts, failed_at, last_error} (docs/relay.md); [] when there are none.
 */
#[AsCommand(name: 'relay:failed', description: 'List the relay\'s dead letters with their last error')]
final class RelayFailedCommand extends Command
{
    protected function configure(): void
    {
        $this
            ->addOption('spool', null, InputOption::VALUE_REQUIRED, RelayLocation::spoolHelp('The relay\'s spool file'))
            ->addOption('limit', null, InputOption::VALUE_REQUIRED, 'Show at most this many', '100');
        OutputFormat::addOptionWithJsonAlias($this);
    }

    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        try {
            $format = OutputFormat::fromInputOrAlias($input, $output, 'relay:failed');
            $limit = self::limit($input);
        } catch (UsageError $e) {
            CommandOutput::error($output, $e->getMessage());

            return self::INVALID;
        }
        $spool = $input->getOption('spool');
        try {
            $rows = RelayLocation::resolve(null, \is_string($spool) ? $spool : null)->readSpool(static fn(SpoolInspector $reader): array => $reader->deadLetters($limit));
        } catch (\RuntimeException $e) {
            CommandOutput::error($output, $e->getMessage());

            return self::FAILURE;
        }
        if ($format === OutputFormat::Json) {
            CommandOutput::json($output, $rows);
        } else {
            self::table($output, $rows);
        }

        return self::SUCCESS;
    }

    /** @param list<array{id: int, method: string, uri: string, attempts: int, failed_at: float, last_error: string}> $rows */
    private static function table(OutputInterface $output, array $rows): void
    {
        if ($rows === []) {
            $output->writeln('No dead letters.');

            return;
        }
        $table = new Table($output);
        $table->setHeaders(['id', 'request', 'attempts', 'failed at', 'last error']);
        foreach ($rows as $row) {
            $table->addRow([$row['id'], $row['method'] . ' ' . $row['uri'], $row['attempts'], date('Y-m-d H:i:s', (int) $row['failed_at']), $row['last_error']]);
        }
        $table->render();
        $output->writeln('Requeue with: warmhttp relay:retry ID... (or --all)');
    }

    private static function limit(InputInterface $input): int
    {
        $limit = $input->getOption('limit');
        if (!\is_string($limit) || !ctype_digit($limit) || (int) $limit < 1) {
            throw new UsageError(\sprintf('--limit must be a whole number >= 1, got "%s".', \is_string($limit) ? $limit : ''));
        }

        return (int) $limit;
    }
}
