<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Console;

use Symfony\Component\Console\Attribute\AsCommand;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Input\InputArgument;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Input\InputOption;
use Symfony\Component\Console\Output\OutputInterface;
use WarmHttp\Relay\RelayConfig;
use WarmHttp\Relay\Storage\SpoolReader;
use WarmHttp\Relay\Storage\SpoolUnavailable;

#[AsCommand(name: 'relay:retry', description: 'Requeue dead letters (by id, or --all); the running relay picks them up within a second')]
final class RelayRetryCommand extends Command
{
    protected function configure(): void
    {
        $this
            ->addArgument('ids', InputArgument::IS_ARRAY, 'Dead letter ids, as relay:failed lists them')
            ->addOption('all', null, InputOption::VALUE_NONE, 'Requeue every dead letter')
            ->addOption('spool', null, InputOption::VALUE_REQUIRED, 'The relay\'s spool file', RelayConfig::DEFAULT_SPOOL);
    }

    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        /** @var list<string> $ids */
        $ids = $input->getArgument('ids');
        $all = (bool) $input->getOption('all');
        if ($ids === [] && !$all) {
            $output->writeln('<error>Name the dead letters to requeue (ids from relay:failed), or pass --all.</error>');

            return self::INVALID;
        }
        foreach ($ids as $id) {
            if (!ctype_digit($id)) {
                $output->writeln(\sprintf('<error>"%s" is not a dead letter id (a whole number from relay:failed).</error>', $id));

                return self::INVALID;
            }
        }
        try {
            $moved = SpoolReader::open(\is_string($spool = $input->getOption('spool')) ? $spool : '')->retry($all ? null : array_map('intval', $ids));
        } catch (SpoolUnavailable|\PDOException $e) {
            $output->writeln('<error>' . $e->getMessage() . '</error>');

            return self::FAILURE;
        }
        $output->writeln(\sprintf('Requeued %d request(s).', $moved));

        return $moved > 0 || $all ? self::SUCCESS : self::FAILURE;
    }
}
