<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Console;

use Symfony\Component\Console\Attribute\AsCommand;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Input\InputOption;
use Symfony\Component\Console\Output\OutputInterface;
use WarmHttp\Console\CommandOutput;
use WarmHttp\Console\OutputFormat;
use WarmHttp\Console\UsageError;
use WarmHttp\Relay\Storage\Redis\RedisAddress;
use WarmHttp\Relay\Storage\SpoolInspector;

/**
 * `--format=json` prints one object: spool, socket, running, pending, retrying, dead,
 * delivered, dead_lettered, oldest_age_seconds, in_flight (docs/relay.md lists their meaning).
 */
#[AsCommand(name: 'relay:status', description: 'Show the relay\'s queue: pending, retrying, dead letters, delivered, and in flight when it runs')]
final class RelayStatusCommand extends Command
{
    protected function configure(): void
    {
        $this
            ->addOption('spool', null, InputOption::VALUE_REQUIRED, RelayLocation::spoolHelp('The relay\'s spool file'))
            ->addOption('socket', null, InputOption::VALUE_REQUIRED, RelayLocation::socketHelp('The relay\'s socket, to ask it for what is in flight; by default the one the relay using --spool recorded beside it'));
        OutputFormat::addOptionWithJsonAlias($this);
    }

    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        try {
            $format = OutputFormat::fromInputOrAlias($input, $output, 'relay:status');
        } catch (UsageError $e) {
            CommandOutput::error($output, $e->getMessage());

            return self::INVALID;
        }
        $location = RelayLocation::ofRunningRelay(self::option($input, 'socket'), self::option($input, 'spool'));
        try {
            [$counts, $relays] = $location->readSpool(static fn(SpoolInspector $spool): array => [$spool->counts(), $spool->relays()]);
        } catch (\RuntimeException $e) {
            CommandOutput::error($output, $e->getMessage());

            return self::FAILURE;
        }
        $answer = RelayAnswer::ask($location->socket);
        $status = ['spool' => RedisAddress::redact($location->spool), 'socket' => $location->socket, 'running' => $answer->running] + $counts + ['in_flight' => $answer->inFlight];
        if ($relays !== []) {
            // a fleet: in flight across every relay that reported in the last seconds, and each one's share
            $status['in_flight'] = array_sum(array_column($relays, 'in_flight'));
            $status['relays'] = $relays;
        }
        if ($format === OutputFormat::Json) {
            CommandOutput::json($output, $status);
            if ($answer->problem !== '') {
                CommandOutput::note($output, 'relay:status: in_flight is null: ' . $answer->problem);
            }

            return self::SUCCESS;
        }
        foreach ($counts as $name => $value) {
            $output->writeln(\sprintf('%-20s %s', str_replace('_', ' ', $name), $value));
        }
        $output->writeln(\sprintf('%-20s %s', 'in flight', $status['in_flight'] ?? $answer->problem), OutputInterface::OUTPUT_RAW);
        foreach ($relays as $id => $relay) {
            $output->writeln(\sprintf('relay %-14s in flight %d, forwarder lag %d bytes, seen %.1f s ago', $id, $relay['in_flight'], $relay['forwarder_lag_bytes'], $relay['seen_seconds_ago']), OutputInterface::OUTPUT_RAW);
        }

        return self::SUCCESS;
    }

    private static function option(InputInterface $input, string $name): ?string
    {
        $value = $input->getOption($name);

        return \is_string($value) ? $value : null;
    }
}
