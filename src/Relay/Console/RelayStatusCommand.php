<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Console;

use Symfony\Component\Console\Attribute\AsCommand;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Input\InputOption;
use Symfony\Component\Console\Output\OutputInterface;
use WarmHttp\Relay\RelayConfig;
use WarmHttp\Relay\Storage\SpoolReader;
use WarmHttp\Relay\Storage\SpoolUnavailable;

#[AsCommand(name: 'relay:status', description: 'Show the relay\'s queue: pending, retrying, dead letters, delivered, and in flight when it runs')]
final class RelayStatusCommand extends Command
{
    protected function configure(): void
    {
        $this
            ->addOption('spool', null, InputOption::VALUE_REQUIRED, 'The relay\'s spool file', RelayConfig::DEFAULT_SPOOL)
            ->addOption('socket', null, InputOption::VALUE_REQUIRED, 'The relay\'s socket, to ask it for what is in flight', RelayConfig::DEFAULT_SOCKET)
            ->addOption('json', null, InputOption::VALUE_NONE, 'Print JSON');
    }

    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        try {
            $counts = SpoolReader::open(self::option($input, 'spool'))->counts();
        } catch (SpoolUnavailable|\PDOException $e) {
            $output->writeln('<error>' . $e->getMessage() . '</error>');

            return self::FAILURE;
        }
        $status = $counts + ['in_flight' => self::inFlight(self::option($input, 'socket'))];
        if ($input->getOption('json')) {
            $output->writeln((string) json_encode($status, \JSON_PRETTY_PRINT));

            return self::SUCCESS;
        }
        foreach ($status as $name => $value) {
            $output->writeln(\sprintf('%-20s %s', str_replace('_', ' ', $name), $value ?? 'relay not running'));
        }

        return self::SUCCESS;
    }

    private static function option(InputInterface $input, string $name): string
    {
        $value = $input->getOption($name);

        return \is_string($value) ? $value : '';
    }

    /** From the running relay's /metrics; null when it does not answer. */
    private static function inFlight(string $socket): ?int
    {
        $stream = @stream_socket_client('unix://' . $socket, $errno, $errstr, 1.0);
        if ($stream === false) {
            return null;
        }
        stream_set_timeout($stream, 2);
        fwrite($stream, "GET /metrics HTTP/1.1\r\nHost: relay\r\nConnection: close\r\n\r\n");
        $metrics = (string) stream_get_contents($stream);
        fclose($stream);

        return preg_match('/^warmhttp_relay_in_flight (\d+)/m', $metrics, $m) === 1 ? (int) $m[1] : null;
    }
}
