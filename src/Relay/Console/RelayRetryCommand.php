<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Console;

use Symfony\Component\Console\Attribute\AsCommand;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Input\InputArgument;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Input\InputOption;
use Symfony\Component\Console\Output\OutputInterface;
use WarmHttp\Console\CommandOutput;
use WarmHttp\Console\UsageError;
use WarmHttp\Relay\Storage\SpoolInspector;

/**
 * Exit 0 when every named dead letter was requeued (or --all, however many there were); 1 when
 * some id was not a dead letter, as `rm a b` does when b is missing: the others are requeued.
 */
#[AsCommand(name: 'relay:retry', description: 'Requeue dead letters (by id, or --all); the running relay picks them up within a second')]
final class RelayRetryCommand extends Command
{
    protected function configure(): void
    {
        $this
            ->addArgument('ids', InputArgument::IS_ARRAY, 'Dead letter ids, as relay:failed lists them')
            ->addOption('all', null, InputOption::VALUE_NONE, 'Requeue every dead letter')
            ->addOption('spool', null, InputOption::VALUE_REQUIRED, RelayLocation::spoolHelp('The relay\'s spool file'));
    }

    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        try {
            $ids = self::ids($input);
        } catch (UsageError $e) {
            CommandOutput::error($output, $e->getMessage());

            return self::INVALID;
        }
        $spool = $input->getOption('spool');
        try {
            [$moved, $missing] = RelayLocation::resolve(null, \is_string($spool) ? $spool : null)->readSpool(static fn(SpoolInspector $reader): array => self::requeue($reader, $ids));
        } catch (\RuntimeException $e) {
            CommandOutput::error($output, $e->getMessage());

            return self::FAILURE;
        }
        $output->writeln(\sprintf('Requeued %d request(s).', $moved));
        if ($missing === []) {
            return self::SUCCESS;
        }
        CommandOutput::error($output, \sprintf('Not dead letters: %s (already requeued or delivered, or never one); relay:failed lists the ids.', implode(', ', $missing)));

        return self::FAILURE;
    }

    /**
     * @param list<int>|null $ids null: all
     *
     * @return array{int, list<int>} how many were requeued, and the ids that were not dead letters
     */
    private static function requeue(SpoolInspector $reader, ?array $ids): array
    {
        if ($ids === null) {
            return [$reader->retry(null), []];
        }
        $dead = array_column($reader->deadLetters(\PHP_INT_MAX), 'id');

        return [$reader->retry($ids), array_values(array_diff($ids, $dead))];
    }

    /**
     * @return list<int>|null null: --all
     *
     * @throws UsageError
     */
    private static function ids(InputInterface $input): ?array
    {
        /** @var list<string> $ids */
        $ids = $input->getArgument('ids');
        if ($input->getOption('all')) {
            if ($ids !== []) {
                throw new UsageError('Pass dead letter ids or --all, not both.');
            }

            return null;
        }
        if ($ids === []) {
            throw new UsageError('Name the dead letters to requeue (ids from relay:failed), or pass --all.');
        }
        foreach ($ids as $id) {
            if (!ctype_digit($id)) {
                throw new UsageError(\sprintf('"%s" is not a dead letter id (a whole number from relay:failed).', $id));
            }
        }

        return array_values(array_unique(array_map('intval', $ids)));
    }
}
