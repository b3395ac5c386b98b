<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Group;

use Symfony\Component\Console\Helper\ProgressBar;
use WarmHttp\Bench\BenchContext;
use WarmHttp\Bench\Group;
use WarmHttp\Bench\Row;
use WarmHttp\Bench\Scenario;
use WarmHttp\Bench\Spread;
use WarmHttp\Bench\Strategy;

/**
 * CPU per warm request with no added latency (straight to nginx, TLS + HTTP/2): what the client
 * itself costs. getrusage() user+sys of this process only (nginx is another process), over
 * rounds that interleave the clients so load drift hits all of them alike.
 *
 * @internal bench tooling
 */
final class CpuGroup implements Group
{
    private const ROUNDS = 5;
    private const WARM_UP = 50;

    public function name(): string
    {
        return 'cpu';
    }

    public function title(BenchContext $context): string
    {
        return \sprintf('CPU per warm request, no added latency, %d requests per client in %d interleaved rounds', $context->config->cpuRequests, self::ROUNDS);
    }

    public function run(BenchContext $context): array
    {
        $scenarios = array_values(array_filter([
            new Strategy\CurlReused(),
            new Strategy\CurlMultiCache(),
            new Strategy\WarmHttpSequential(),
            Strategy\Guzzle::oneClient(),
            Strategy\Symfony::sequential(),
        ], fn(Scenario $s): bool => $context->config->selected($this->name() . '/' . $s->name())));
        $url = $context->targets->directUrl('/fast');
        if ($scenarios === []) {
            return [];
        }
        if ($url === null) {
            return $context->skipAll($this->name(), $scenarios, 'CPU is measured on the rig only (no added latency), not with --url');
        }
        $runnable = array_filter($scenarios, static fn(Scenario $s): bool => $s->unavailableReason() === null);
        $samples = $this->sample($context, $runnable, $url);
        $rows = [];
        foreach ($scenarios as $i => $scenario) {
            $rows[] = isset($samples[$i]) ? $this->row($scenario, $samples[$i], $samples[0] ?? null, $context->config->cpuRequests) : Row::skipped($this->name(), $scenario, (string) $scenario->unavailableReason());
        }

        return $rows;
    }

    /**
     * @param array<int, Scenario> $scenarios
     *
     * @return array<int, array{cpu: non-empty-list<float>, wall: non-empty-list<float>}> µs per request
     */
    private function sample(BenchContext $context, array $scenarios, string $url): array
    {
        $batch = max(1, intdiv($context->config->cpuRequests, self::ROUNDS));
        $urls = array_fill(0, $batch, $url);
        $senders = [];
        foreach ($scenarios as $i => $scenario) {
            $senders[$i] = $scenario->open($context->targets->tls());
            $senders[$i](...array_fill(0, self::WARM_UP, $url));
        }
        if ($senders === []) {
            return [];
        }
        $bar = new ProgressBar($context->progress, self::ROUNDS * \count($senders));
        $samples = [];
        for ($round = 0; $round < self::ROUNDS; ++$round) {
            // Rotate who goes first: the first client after a pause tends to pay for cold caches.
            $order = array_keys($senders);
            $order = [...\array_slice($order, $round % \count($order)), ...\array_slice($order, 0, $round % \count($order))];
            foreach ($order as $i) {
                $bar->advance();
                [$cpu, $wall] = self::time($senders[$i], $urls);
                $samples[$i]['cpu'][] = $cpu / $batch;
                $samples[$i]['wall'][] = $wall / $batch;
            }
        }
        $bar->clear();

        return $samples;
    }

    /**
     * @param \Closure(string...): void $send
     * @param list<string>                $urls
     *
     * @return array{float, float} CPU µs (user + sys), wall µs
     */
    private static function time(\Closure $send, array $urls): array
    {
        $before = getrusage();
        $start = hrtime(true);
        $send(...$urls);
        $wall = (hrtime(true) - $start) / 1e3;
        $after = getrusage();

        return [self::cpuUs($after) - self::cpuUs($before), $wall];
    }

    /** @param array<mixed>|false $usage */
    private static function cpuUs(array|false $usage): float
    {
        $field = static fn(string $key): int => \is_int($usage[$key] ?? null) ? $usage[$key] : 0;

        return ($field('ru_utime.tv_sec') + $field('ru_stime.tv_sec')) * 1e6 + $field('ru_utime.tv_usec') + $field('ru_stime.tv_usec');
    }

    /**
     * @param array{cpu: non-empty-list<float>, wall: non-empty-list<float>}      $samples
     * @param array{cpu: non-empty-list<float>, wall: non-empty-list<float>}|null $curl    the raw reused handle's
     */
    private function row(Scenario $scenario, array $samples, ?array $curl, int $requests): Row
    {
        $cpu = Spread::of($samples['cpu']);
        $extra = ['wallUsMedian' => round(Spread::of($samples['wall'])->median, 1)];
        if ($curl !== null) {
            $extra['vsRawCurl'] = round($cpu->median / max(0.001, Spread::of($curl['cpu'])->median), 3);
        }

        return new Row($this->name(), $scenario->name(), $scenario->label(), Row::OK, unit: 'µs', min: $cpu->min, median: $cpu->median, max: $cpu->max, requests: $requests, extra: $extra);
    }
}
