<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Group;

use Symfony\Component\Console\Helper\ProgressBar;
use WarmHttp\Bench\BenchContext;
use WarmHttp\Bench\BenchException;
use WarmHttp\Bench\Cpu\Callgrind;
use WarmHttp\Bench\Cpu\CpuScenarios;
use WarmHttp\Bench\Cpu\InterleavedRounds;
use WarmHttp\Bench\Cpu\PairedRatios;
use WarmHttp\Bench\Group;
use WarmHttp\Bench\Row;
use WarmHttp\Bench\Scenario;
use WarmHttp\Bench\Spread;

/**
 * CPU per warm request with no added latency (straight to nginx, TLS + HTTP/2): what the client
 * itself costs. getrusage() user+sys of this process only (nginx is another process), over
 * rounds that interleave the clients so load drift hits all of them alike, each row's ratio to
 * the raw handle the median of its per-round ratios (PairedRatios); and instructions per
 * request counted by callgrind (Callgrind), which do not move with the machine's load.
 *
 * @internal bench tooling
 */
final class CpuGroup implements Group
{
    private const WARM_UP = 50;

    /** 80 requests per client and round at the default --cpu-requests 2000, 12 at --quick's 300. */
    private const ROUNDS = 25;

    public function name(): string
    {
        return 'cpu';
    }

    public function title(BenchContext $context): string
    {
        return \sprintf(
            'CPU per warm request, no added latency, %d requests per client in %d interleaved rounds (× raw curl: the median of the rounds\' ratios); instructions per request counted by callgrind over %d warm requests, opcache off',
            $context->config->cpuRequests,
            min(self::ROUNDS, $context->config->cpuRequests),
            Callgrind::forRequests($context->config->cpuRequests)->requests,
        );
    }

    public function run(BenchContext $context): array
    {
        $scenarios = array_values(array_filter(CpuScenarios::all(), fn(Scenario $s): bool => $context->config->selected($this->name() . '/' . $s->name())));
        $url = $context->targets->directUrl('/fast');
        if ($scenarios === []) {
            return [];
        }
        if ($url === null) {
            return $context->skipAll($this->name(), $scenarios, 'CPU is measured on the rig only (no added latency), not with --url');
        }
        $runnable = array_filter($scenarios, static fn(Scenario $s): bool => $s->unavailableReason() === null);
        $samples = InterleavedRounds::sample($context, $runnable, $url, $context->config->cpuRequests, self::ROUNDS, self::WARM_UP);
        $instructions = self::count($context, $runnable, $url);
        $rows = [];
        foreach ($scenarios as $i => $scenario) {
            $rows[] = isset($samples[$i])
                ? $this->row($scenario, $samples[$i], $samples[0] ?? null, $context->config->cpuRequests, \is_string($instructions) ? $instructions : [$instructions[$i] ?? null, $instructions[0] ?? null])
                : Row::skipped($this->name(), $scenario, (string) $scenario->unavailableReason());
        }

        return $rows;
    }

    /**
     * @param array<int, Scenario> $scenarios
     *
     * @return array<int, float>|string instructions per request by scenario key, or why none were counted
     */
    private static function count(BenchContext $context, array $scenarios, string $url): array|string
    {
        $missing = Callgrind::missing();
        if ($missing !== null) {
            return 'instructions not counted: ' . $missing;
        }
        $callgrind = Callgrind::forRequests($context->config->cpuRequests);
        $bar = new ProgressBar($context->progress, \count($scenarios));
        $counts = [];
        try {
            foreach ($scenarios as $i => $scenario) {
                $bar->advance();
                $counts[$i] = $callgrind->perRequest($scenario->name(), $url, $context->targets->tls());
            }
        } catch (BenchException $e) {
            return 'instructions not counted: ' . $e->getMessage(); // the CPU times still stand
        } finally {
            $bar->clear();
        }

        return $counts;
    }

    /**
     * @param array{cpu: non-empty-list<float>, wall: non-empty-list<float>}      $samples
     * @param array{cpu: non-empty-list<float>, wall: non-empty-list<float>}|null $curl         the raw reused handle's
     * @param array{?float, ?float}|string                                         $instructions this row's and the raw handle's per request, or why none were counted
     */
    private function row(Scenario $scenario, array $samples, ?array $curl, int $requests, array|string $instructions): Row
    {
        $cpu = Spread::of($samples['cpu']);
        $extra = ['wallUsMedian' => round(Spread::of($samples['wall'])->median, 1)];
        $spread = null;
        if ($curl !== null) {
            $paired = PairedRatios::of($samples['cpu'], $curl['cpu']);
            $extra += ['vsRawCurl' => round($paired->median, 3), 'vsRawCurlP25' => round($paired->p25, 3), 'vsRawCurlP75' => round($paired->p75, 3), 'rounds' => $paired->rounds];
            $spread = $paired->spread();
        }
        $extra += self::instructionExtras($instructions);
        if ($spread !== null) {
            // After the instructions' note, which Goals reads from its start ("instructions not counted: ...")
            $extra['note'] = \is_string($extra['note'] ?? null) ? $extra['note'] . ' · CPU time ' . $spread : 'CPU time ' . $spread;
        }

        return new Row($this->name(), $scenario->name(), $scenario->label(), Row::OK, unit: 'µs', min: $cpu->min, median: $cpu->median, max: $cpu->max, requests: $requests, extra: $extra);
    }

    /**
     * kIrPerRequest, irVsRawCurl, and a note the reports print: "138.2 kIr/req, 1.37× raw curl in instructions".
     *
     * @param array{?float, ?float}|string $instructions
     *
     * @return array<string, float|string>
     */
    private static function instructionExtras(array|string $instructions): array
    {
        if (\is_string($instructions)) {
            return ['note' => $instructions];
        }
        [$own, $curl] = $instructions;
        if ($own === null) {
            return [];
        }
        $extra = ['kIrPerRequest' => round($own / 1000, 1)];
        $note = \sprintf('%.1f kIr/req', $own / 1000);
        if ($curl !== null && $curl > 0) {
            $extra['irVsRawCurl'] = round($own / $curl, 3);
            $note .= \sprintf(', %.2f× raw curl in instructions', $own / $curl);
        }

        return $extra + ['note' => $note];
    }
}
