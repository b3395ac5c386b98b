<?php

declare(strict_types=1);

namespace WarmHttp\Console;

use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\ResponseInterface;
use Symfony\Component\Console\Attribute\AsCommand;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Helper\Table;
use Symfony\Component\Console\Input\InputArgument;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Input\InputOption;
use Symfony\Component\Console\Output\OutputInterface;
use WarmHttp\Client;
use WarmHttp\Exception\InvalidOptionException;
use WarmHttp\Pool;
use WarmHttp\PoolStats;
use WarmHttp\Response;

/**
 * `warmhttp probe URL`: where the time of one cold and a few warm requests goes.
 *
 * `--format=json` prints one object: url, requests (number, reused_connection, dns_ms,
 * connect_ms, tls_ms, first_byte_ms, total_ms, status, http_version, remote_address),
 * connections_opened, tls_handshakes (docs/benchmarks.md). A failed request prints nothing on
 * stdout: the error goes to stderr, exit code 1.
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
        OutputFormat::addOption($this);
    }

    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        try {
            $format = OutputFormat::fromInput($input);
            [$url, $count] = self::target($input);
            $client = new Client($this->options($input));
        } catch (UsageError|InvalidOptionException $e) {
            CommandOutput::error($output, $e->getMessage());

            return Command::INVALID;
        }
        $before = Pool::stats();
        $responses = [];
        for ($i = 1; $i <= $count + 1; ++$i) {
            try {
                $responses[] = $client->sendRequest($client->createRequest('GET', $url));
            } catch (ClientExceptionInterface $e) {
                CommandOutput::error($output, \sprintf('Request %d to %s failed: %s', $i, $url, $e->getMessage()));

                return Command::FAILURE;
            }
        }
        $result = self::result($url, $responses, $before, Pool::stats());
        if ($format === OutputFormat::Json) {
            CommandOutput::json($output, $result);
        } else {
            self::text($output, $result);
        }

        return Command::SUCCESS;
    }

    /**
     * @return array{string, int}
     *
     * @throws UsageError
     */
    private static function target(InputInterface $input): array
    {
        $url = $input->getArgument('url');
        $url = \is_string($url) ? $url : '';
        if (preg_match('~^https?://[^/?#]~i', $url) !== 1) {
            throw new UsageError(\sprintf('probe needs an http:// or https:// URL, got "%s".', $url));
        }
        $count = $input->getOption('count');
        if (!\is_string($count) || !ctype_digit($count)) {
            throw new UsageError(\sprintf('--count must be a whole number >= 0 (warm requests after the cold one), got "%s".', \is_string($count) ? $count : ''));
        }

        return [$url, (int) $count];
    }

    /** @return array<string, mixed> */
    private function options(InputInterface $input): array
    {
        $cafile = $input->getOption('cafile');
        $options = ['verify' => !$input->getOption('insecure')];
        if (\is_string($cafile) && !is_readable($cafile)) {
            throw new UsageError(\sprintf('--cafile must be a readable CA bundle (PEM), got "%s".', $cafile));
        }

        return \is_string($cafile) ? $options + ['cafile' => $cafile] : $options;
    }

    /**
     * @param list<ResponseInterface> $responses
     *
     * @return array{url: string, requests: list<array<string, mixed>>, connections_opened: int, tls_handshakes: int}
     */
    private static function result(string $url, array $responses, PoolStats $before, PoolStats $after): array
    {
        return [
            'url' => $url,
            'requests' => array_map(self::request(...), array_keys($responses), $responses),
            'connections_opened' => $after->connectionsOpened - $before->connectionsOpened,
            'tls_handshakes' => $after->tlsHandshakes - $before->tlsHandshakes,
        ];
    }

    /** @return array<string, mixed> times in milliseconds from the start of the request; null when the response carries no stats */
    private static function request(int $index, ResponseInterface $response): array
    {
        $stats = $response instanceof Response ? $response->stats() : null;

        return [
            'number' => $index + 1,
            'reused_connection' => $stats?->reusedConnection,
            'dns_ms' => $stats?->dnsMs,
            'connect_ms' => $stats?->connectMs,
            'tls_ms' => $stats?->tlsMs,
            'first_byte_ms' => $stats?->firstByteMs,
            'total_ms' => $stats?->totalMs,
            'status' => $response->getStatusCode(),
            'http_version' => $stats !== null ? $stats->httpVersion : $response->getProtocolVersion(),
            'remote_address' => $stats?->remoteAddress,
        ];
    }

    /** @param array{url: string, requests: list<array<string, mixed>>, connections_opened: int, tls_handshakes: int} $result */
    private static function text(OutputInterface $output, array $result): void
    {
        $table = new Table($output);
        $table->setHeaders(['#', 'connection', 'DNS ms', 'connect ms', 'TLS ms', 'first byte ms', 'total ms', 'status', 'HTTP']);
        $ms = static fn(mixed $value): string => \is_float($value) ? \sprintf('%.2f', $value) : '';
        foreach ($result['requests'] as $r) {
            $connection = match ($r['reused_connection']) {
                true => 'warm (reused)',
                false => 'cold (new)',
                default => '?',
            };
            $table->addRow([$r['number'], $connection, $ms($r['dns_ms']), $ms($r['connect_ms']), $ms($r['tls_ms']), $ms($r['first_byte_ms']), $ms($r['total_ms']), $r['status'], $r['http_version']]);
        }
        $table->render();
        $output->writeln(\sprintf(
            'Connections opened: %d, TLS handshakes: %d, for %d requests. A warm request skips DNS, connect and TLS: that is the saving.',
            $result['connections_opened'],
            $result['tls_handshakes'],
            \count($result['requests']),
        ));
    }
}
