<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Console;

use Symfony\Component\Console\Attribute\AsCommand;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Input\InputOption;
use Symfony\Component\Console\Output\ConsoleOutputInterface;
use Symfony\Component\Console\Output\OutputInterface;
use WarmHttp\Bench\BenchConfig;
use WarmHttp\Bench\BenchContext;
use WarmHttp\Bench\BenchException;
use WarmHttp\Bench\Goals;
use WarmHttp\Bench\Group\Groups;
use WarmHttp\Bench\Output\GroupProgress;
use WarmHttp\Bench\Output\JsonReport;
use WarmHttp\Bench\Output\MarkdownReport;
use WarmHttp\Bench\Output\ResultsBlock;
use WarmHttp\Bench\Output\SvgChart;
use WarmHttp\Bench\Output\TerminalReport;
use WarmHttp\Bench\Report;
use WarmHttp\Bench\Target\RigTargets;
use WarmHttp\Bench\Target\Targets;
use WarmHttp\Bench\Target\UrlTargets;
use WarmHttp\Bench\Tls;
use WarmHttp\Rig\Rig;

/**
 * `warmhttp bench`: every way of calling HTTP from PHP, side by side on real latency.
 */
#[AsCommand(name: 'bench', description: 'Measure every HTTP strategy and peer against the physical limit, on the rig or your URL')]
final class BenchCommand extends Command
{
    /** Option values of the presets; anything given on the command line wins. */
    private const PRESETS = [
        'quick' => ['requests' => 10, 'parallel' => 30, 'tasks' => 5, 'repeat' => 2, 'cpu-requests' => 300],
        // seeds/000 measured at 19.5 ms RTT with 50 GETs; seeds/003 fetched 100 feeds at once.
        'seeds' => ['rtt' => 19.5, 'requests' => 50, 'parallel' => 100, 'repeat' => 3,
            'only' => 'seq/curl-naive,seq/curl-reused,seq/guzzle-*,seq/warmhttp,two-origins/*,par/curl-multi-*,par/warmhttp-sendall-h2'],
    ];

    protected function configure(): void
    {
        $this
            ->addOption('rtt', null, InputOption::VALUE_REQUIRED, 'Round-trip time the rig proxy adds, ms', '20')
            ->addOption('requests', null, InputOption::VALUE_REQUIRED, 'Requests per sequential row', '50')
            ->addOption('parallel', null, InputOption::VALUE_REQUIRED, 'Requests per parallel row', '100')
            ->addOption('tasks', null, InputOption::VALUE_REQUIRED, 'concurrently() tasks (3 requests each)', '10')
            ->addOption('server-time', null, InputOption::VALUE_REQUIRED, 'Server time per request, ms (default: 0 sequential, 50 parallel)')
            ->addOption('payload', null, InputOption::VALUE_REQUIRED, 'Response body bytes (one of the rig sizes: 1024, 10240, 102400, 1048576)', '0')
            ->addOption('repeat', null, InputOption::VALUE_REQUIRED, 'Runs per row (min / median / max)', '3')
            ->addOption('cpu-requests', null, InputOption::VALUE_REQUIRED, 'Warm requests per client in the CPU group', '2000')
            ->addOption('quick', null, InputOption::VALUE_NONE, 'Small sizes: the whole run in well under a minute')
            ->addOption('preset', null, InputOption::VALUE_REQUIRED, 'seeds: the settings and rows that reproduce the seeds\' published numbers')
            ->addOption('url', null, InputOption::VALUE_REQUIRED, 'Run the sequential and parallel rows against your https:// endpoint instead of the rig')
            ->addOption('cafile', null, InputOption::VALUE_REQUIRED, 'CA bundle for --url')
            ->addOption('insecure', null, InputOption::VALUE_NONE, 'Do not verify the --url certificate')
            ->addOption('only', null, InputOption::VALUE_REQUIRED, 'Comma-separated patterns on group/name, e.g. "seq/*,cpu/warmhttp"')
            ->addOption('out', null, InputOption::VALUE_REQUIRED, 'Directory for bench.json, bench.md and bench.svg', 'build/bench')
            ->addOption('render', null, InputOption::VALUE_REQUIRED, 'Measure nothing: draw bench.md and bench.svg again from this bench.json (into its directory, or --out)')
            ->addOption('doc', null, InputOption::VALUE_REQUIRED, 'Also fill this document\'s results block (e.g. docs/benchmarks.md) with the run\'s tables');
    }

    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        $render = $input->getOption('render');
        $doc = \is_string($input->getOption('doc')) ? $input->getOption('doc') : null;
        if (\is_string($render)) {
            $out = $input->getOption('out');

            return $this->render($render, $input->hasParameterOption('--out', true) && \is_string($out) ? $out : \dirname($render), $doc, $output);
        }
        try {
            $config = $this->config($input);
        } catch (BenchException $e) {
            $output->writeln('<error>' . $e->getMessage() . '</error>');

            return Command::INVALID;
        }
        $progress = $output instanceof ConsoleOutputInterface ? $output->getErrorOutput() : $output;
        $targets = $this->targets($config, $input, $progress);
        $load = sys_getloadavg() ?: [];
        $titles = $rows = [];
        foreach (Groups::defaults() as $group) {
            $title = $group->title(new BenchContext($config, $targets, $progress));
            $groupProgress = new GroupProgress($progress, '<comment>' . $title . '</comment>');
            $groupRows = $group->run(new BenchContext($config, $targets, $groupProgress));
            $groupProgress->finish();
            if ($groupRows !== []) {
                $titles[$group->name()] = $title;
                array_push($rows, ...$groupRows);
            }
        }
        $report = new Report($this->meta($input, $config, $targets, $load), $titles, $rows, Goals::check($rows));
        TerminalReport::write($report, $output);
        $this->save($report, $config->outDir, $output);
        $this->fillDoc($doc, $report, $config->outDir, $output);

        return array_filter($rows, static fn($row): bool => $row->status === 'failed') === [] ? Command::SUCCESS : Command::FAILURE;
    }

    /** The chart and the Markdown of a finished run, drawn again by this code (e.g. after a chart change). */
    private function render(string $jsonFile, string $dir, ?string $doc, OutputInterface $output): int
    {
        $json = @file_get_contents($jsonFile);
        $data = \is_string($json) ? json_decode($json, true) : null;
        if (!\is_array($data) || !\is_array($data['rows'] ?? null)) {
            $output->writeln(\sprintf('<error>--render: "%s" is not a bench.json.</error>', $jsonFile));

            return Command::INVALID;
        }
        $report = Report::fromArray($data);
        if (!is_dir($dir) && !@mkdir($dir, 0o777, true) && !is_dir($dir)) {
            throw new BenchException(\sprintf('--out: cannot create directory "%s".', $dir));
        }
        file_put_contents($dir . '/bench.svg', SvgChart::render($report));
        file_put_contents($dir . '/bench.md', MarkdownReport::render($report, 'bench.svg'));
        $output->writeln(\sprintf('Wrote %s/bench.md and bench.svg from %s.', $dir, $jsonFile));
        $this->fillDoc($doc, $report, $dir, $output);

        return Command::SUCCESS;
    }

    private function fillDoc(?string $doc, Report $report, string $outDir, OutputInterface $output): void
    {
        if ($doc !== null) {
            ResultsBlock::fill($doc, $report, $outDir);
            $output->writeln(\sprintf('Filled the results block of %s.', $doc));
        }
    }

    private function config(InputInterface $input): BenchConfig
    {
        $value = function (string $name) use ($input): mixed {
            $given = $input->hasParameterOption('--' . $name, true);
            $preset = $input->getOption('quick') ? self::PRESETS['quick'] : [];
            $preset += self::PRESETS[$this->preset($input)] ?? [];

            return $given || !\array_key_exists($name, $preset) ? $input->getOption($name) : $preset[$name];
        };
        $only = $value('only');
        $serverTime = $value('server-time');

        return new BenchConfig(
            rttMs: self::number($value('rtt'), 'rtt'),
            requests: (int) self::number($value('requests'), 'requests'),
            parallelRequests: (int) self::number($value('parallel'), 'parallel'),
            tasks: (int) self::number($value('tasks'), 'tasks'),
            serverMs: $serverTime === null ? null : self::number($serverTime, 'server-time'),
            payload: (int) self::number($value('payload'), 'payload'),
            repeat: (int) self::number($value('repeat'), 'repeat'),
            cpuRequests: (int) self::number($value('cpu-requests'), 'cpu-requests'),
            url: \is_string($input->getOption('url')) ? $input->getOption('url') : null,
            only: \is_string($only) ? array_values(array_filter(array_map(trim(...), explode(',', $only)))) : [],
            outDir: \is_string($input->getOption('out')) ? $input->getOption('out') : 'build/bench',
        );
    }

    private function preset(InputInterface $input): string
    {
        $preset = $input->getOption('preset');
        if ($preset !== null && $preset !== 'seeds') {
            throw new BenchException(\sprintf('--preset must be "seeds", got "%s".', \is_scalar($preset) ? $preset : ''));
        }

        return \is_string($preset) ? $preset : '';
    }

    private static function number(mixed $value, string $option): float
    {
        if (!is_numeric($value)) {
            throw new BenchException(\sprintf('--%s must be a number, got "%s".', $option, \is_scalar($value) ? $value : get_debug_type($value)));
        }

        return (float) $value;
    }

    private function targets(BenchConfig $config, InputInterface $input, OutputInterface $progress): Targets
    {
        if ($config->url !== null) {
            $cafile = $input->getOption('cafile');

            return new UrlTargets($config->url, new Tls(\is_string($cafile) ? $cafile : null, !$input->getOption('insecure')));
        }
        $progress->writeln('Starting the rig: a throw-away CA, nginx (TLS 1.3 + HTTP/2), latency proxies…');
        $targets = new RigTargets(Rig::shared(), $config->rttMs);
        $targets->network();

        return $targets;
    }

    /**
     * @param array<int, float> $loadBefore
     *
     * @return array<string, mixed>
     */
    private function meta(InputInterface $input, BenchConfig $config, Targets $targets, array $loadBefore): array
    {
        $curl = array_filter(curl_version() ?: [], \is_string(...));

        return [
            'date' => date(\DATE_ATOM),
            'machine' => \sprintf('%s cores, %s, PHP %s, libcurl %s %s', self::cores(), php_uname('m'), \PHP_VERSION, $curl['version'] ?? '?', $curl['ssl_version'] ?? ''),
            'command' => 'bin/warmhttp ' . $input,
            'commit' => self::commit(),
            'target' => $targets->describe(),
            'network' => $targets->network()->toArray(),
            'config' => $config->toArray(),
            'loadBefore' => implode(' ', array_map(static fn(float $l): string => \sprintf('%.2f', $l), \array_slice($loadBefore, 0, 3))),
            'loadAfter' => implode(' ', array_map(static fn(float $l): string => \sprintf('%.2f', $l), \array_slice(sys_getloadavg() ?: [], 0, 3))),
        ];
    }

    /** The checkout's commit, "+changes" when the working tree differs from it; '' outside git. */
    private static function commit(): string
    {
        $dir = escapeshellarg(\dirname(__DIR__, 2));
        $commit = trim((string) @shell_exec('git -C ' . $dir . ' rev-parse --short HEAD 2>/dev/null'));
        if ($commit === '') {
            return '';
        }
        $changed = trim((string) @shell_exec('git -C ' . $dir . ' status --porcelain --untracked-files=no 2>/dev/null'));

        return $commit . ($changed === '' ? '' : ' +changes');
    }

    private static function cores(): string
    {
        $cpuinfo = (string) @file_get_contents('/proc/cpuinfo');

        return (string) max(1, substr_count($cpuinfo, "\nprocessor") + (str_starts_with($cpuinfo, 'processor') ? 1 : 0));
    }

    private function save(Report $report, string $dir, OutputInterface $output): void
    {
        if (!is_dir($dir) && !@mkdir($dir, 0o777, true) && !is_dir($dir)) {
            throw new BenchException(\sprintf('--out: cannot create directory "%s".', $dir));
        }
        file_put_contents($dir . '/bench.json', JsonReport::render($report));
        file_put_contents($dir . '/bench.svg', SvgChart::render($report));
        file_put_contents($dir . '/bench.md', MarkdownReport::render($report, 'bench.svg'));
        $output->writeln(\sprintf("\nWrote %s/bench.json, bench.md and bench.svg (the chart).", $dir));
    }
}
