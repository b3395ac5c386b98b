<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Console;

use Symfony\Component\Console\Attribute\AsCommand;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Helper\Table;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Input\InputOption;
use Symfony\Component\Console\Output\OutputInterface;
use WarmHttp\Bench\Scenario;
use WarmHttp\Bench\Strategy\CurlNaive;
use WarmHttp\Bench\Strategy\WarmHttpSendAll;
use WarmHttp\Bench\Strategy\WarmHttpSequential;
use WarmHttp\Bench\Tls;
use WarmHttp\Rig\LatencyProxy;
use WarmHttp\Rig\Rig;

/**
 * `warmhttp demo`: the difference in a few seconds, on a local server made slow like a real one.
 */
#[AsCommand(name: 'demo', description: 'Cold vs warm in a few seconds: plain curl against WarmHttp through a latency proxy')]
final class DemoCommand extends Command
{
    protected function configure(): void
    {
        $this
            ->addOption('rtt', null, InputOption::VALUE_REQUIRED, 'Round-trip time the proxy adds, ms', '20')
            ->addOption('requests', null, InputOption::VALUE_REQUIRED, 'GETs per step', '20');
    }

    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        $rtt = $input->getOption('rtt');
        $n = $input->getOption('requests');
        if (!is_numeric($rtt) || !is_numeric($n) || (float) $rtt < 0 || (int) $n < 1) {
            $output->writeln('<error>--rtt must be a number of ms >= 0 and --requests at least 1.</error>');

            return Command::INVALID;
        }
        $output->writeln(\sprintf('Starting a local nginx (TLS 1.3, HTTP/2) behind a proxy adding %s ms per round trip…', $rtt));
        $rig = Rig::shared();
        $proxy = $rig->proxyTo('h2', (float) $rtt);
        $tls = new Tls($rig->caFile());
        $steps = [
            ['plain curl, new handle per request (most SDKs)', new CurlNaive()],
            ['WarmHttp Client, sendRequest(), cold pool', new WarmHttpSequential()],
            ['WarmHttp Client again: the pool is warm', new WarmHttpSequential()],
            ['WarmHttp sendAll(): all at once over HTTP/2', WarmHttpSendAll::h2()],
        ];
        $table = new Table($output);
        $table->setHeaders(['', \sprintf('%d GETs', (int) $n), 'per request', 'new connections']);
        foreach ($steps as [$label, $scenario]) {
            $output->writeln('  ' . $label . '…');
            $table->addRow([$label, ...self::step($scenario, $tls, $proxy, (int) $n)]);
        }
        $table->render();
        $output->writeln(\sprintf('A new connection costs 2 extra round trips (TCP + TLS 1.3), %s ms each here. Full comparison: bin/warmhttp bench', $rtt));

        return Command::SUCCESS;
    }

    /** @return list<string> */
    private static function step(Scenario $scenario, Tls $tls, LatencyProxy $proxy, int $n): array
    {
        $urls = array_fill(0, $n, $proxy->url('/fast'));
        $before = $proxy->connections();
        $start = hrtime(true);
        ($scenario->open($tls))(...$urls);
        $ms = (hrtime(true) - $start) / 1e6;

        return [\sprintf('%.0f ms', $ms), \sprintf('%.1f ms', $ms / $n), (string) ($proxy->connections() - $before)];
    }
}
