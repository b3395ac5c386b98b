<?php

declare(strict_types=1);

namespace WarmHttp\Console;

use Symfony\Component\Console\Attribute\AsCommand;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Helper\Table;
use Symfony\Component\Console\Input\InputArgument;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Input\InputOption;
use Symfony\Component\Console\Output\OutputInterface;
use WarmHttp\Client;
use WarmHttp\Pool;
use WarmHttp\Response;
use WarmHttp\TransferStats;

/**
 * `warmhttp probe URL`: where the time of one cold and a few warm requests goes.
 */
#[AsCommand(name: 'probe', description: 'One cold and several warm requests to a URL, with the DNS / connect / TLS / first byte / total of each')]
final class ProbeCommand extends Command
{
    protected function configure(): void
    {
        $this
            ->addArgument('url', InputArgument::REQUIRED, 'http:// or https:// URL to GET')
            ->addOption('count', 'c', InputOption::VALUE_REQUIRED, 'Warm requests after the cold one', '5')
            ->addOption('cafile', null, InputOption::VALUE_REQUIRED, 'CA bundle to verify the server with')
            ->addOption('insecure', 'k', InputOption::VALUE_NONE, 'Do not verify the certificate');
    }

    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        $url = $input->getArgument('url');
        $url = \is_string($url) ? $url : '';
        $count = $input->getOption('count');
        if (preg_match('~^https?://~i', $url) !== 1 || !is_numeric($count) || (int) $count < 0) {
            $output->writeln('<error>probe needs an http:// or https:// URL and --count >= 0.</error>');

            return Command::INVALID;
        }
        $client = new Client($this->options($input));
        $table = new Table($output);
        $table->setHeaders(['#', 'connection', 'DNS ms', 'connect ms', 'TLS ms', 'first byte ms', 'total ms', 'status', 'HTTP']);
        $before = Pool::stats();
        for ($i = 0; $i <= (int) $count; ++$i) {
            try {
                $response = $client->sendRequest($client->createRequest('GET', $url));
            } catch (\Psr\Http\Client\ClientExceptionInterface $e) {
                $output->writeln(\sprintf('<error>Request %d to %s failed: %s</error>', $i + 1, $url, $e->getMessage()));

                return Command::FAILURE;
            }
            $table->addRow(self::row($i, $response));
        }
        $table->render();
        $after = Pool::stats();
        $output->writeln(\sprintf(
            'Connections opened: %d, TLS handshakes: %d, for %d requests. A warm request skips DNS, connect and TLS: that is the saving.',
            $after->connectionsOpened - $before->connectionsOpened,
            $after->tlsHandshakes - $before->tlsHandshakes,
            (int) $count + 1,
        ));

        return Command::SUCCESS;
    }

    /** @return array<string, mixed> */
    private function options(InputInterface $input): array
    {
        $cafile = $input->getOption('cafile');
        $options = ['verify' => !$input->getOption('insecure')];

        return \is_string($cafile) ? $options + ['cafile' => $cafile] : $options;
    }

    /** @return list<string|int> */
    private static function row(int $i, \Psr\Http\Message\ResponseInterface $response): array
    {
        $stats = $response instanceof Response ? $response->stats() : null;
        $ms = static fn(?float $value): string => $value === null ? '' : \sprintf('%.2f', $value);

        return [
            $i + 1,
            $stats === null ? '?' : ($stats->reusedConnection ? 'warm (reused)' : 'cold (new)'),
            $ms($stats?->dnsMs),
            $ms($stats?->connectMs),
            $ms($stats?->tlsMs),
            $ms($stats?->firstByteMs),
            $ms($stats?->totalMs),
            $response->getStatusCode(),
            $stats instanceof TransferStats ? $stats->httpVersion : $response->getProtocolVersion(),
        ];
    }
}
