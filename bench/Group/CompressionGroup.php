<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Group;

use WarmHttp\Bench\BenchContext;
use WarmHttp\Bench\Cpu\InterleavedRounds;
use WarmHttp\Bench\Cpu\PairedRatios;
use WarmHttp\Bench\Group;
use WarmHttp\Bench\Row;
use WarmHttp\Bench\Scenario;
use WarmHttp\Bench\Spread;
use WarmHttp\Bench\Strategy;

/**
 * A large JSON answer (the rig's /json/large.json, 1.05 MB, 10:1 in gzip, served pre-gzipped
 * so nginx spends nothing on it) fetched warm and decoded: WarmHttp beside raw curl decoding
 * it itself, and both uncompressed. CPU (getrusage, this process) and wall time per request,
 * straight to nginx, in interleaved rounds as the cpu group.
 *
 * @internal bench tooling
 */
final class CompressionGroup implements Group
{
    private const WARM_UP = 5;
    private const PATH = '/json/large.json';

    /** Fewer than the cpu group's: each request moves a megabyte, and 200 are made by default. */
    private const ROUNDS = 10;

    public function name(): string
    {
        return 'gzip';
    }

    public function title(BenchContext $context): string
    {
        return \sprintf('A 1.05 MB JSON answer gzipped 10:1, decoded; CPU per warm request, %d requests per client in %d interleaved rounds (× curl: the median of the rounds\' ratios)', $this->requests($context), self::ROUNDS);
    }

    public function run(BenchContext $context): array
    {
        $url = $context->targets->directUrl(self::PATH);
        $decoded = $context->targets->onRig() ? self::decodedSize($url) : 0;
        $scenarios = array_values(array_filter([
            new Strategy\CurlDecoding('gzip', $decoded),
            new Strategy\WarmHttpDecoding(true, $decoded),
            new Strategy\CurlDecoding(null, $decoded),
            new Strategy\WarmHttpDecoding(false, $decoded),
        ], fn(Scenario $s): bool => $context->config->selected($this->name() . '/' . $s->name())));
        if ($scenarios === []) {
            return [];
        }
        if ($url === null || $decoded === 0) {
            return $context->skipAll($this->name(), $scenarios, 'the JSON answer is served by the rig only, not with --url');
        }
        $samples = InterleavedRounds::sample($context, $scenarios, $url, $this->requests($context), self::ROUNDS, self::WARM_UP);
        $rows = [];
        foreach ($scenarios as $i => $scenario) {
            $rows[] = $this->row($scenario, $samples[$i], $samples[0], $this->requests($context));
        }

        return $rows;
    }

    /** A tenth of --cpu-requests: each request moves a megabyte. */
    private function requests(BenchContext $context): int
    {
        return max(self::ROUNDS, intdiv($context->config->cpuRequests, 10));
    }

    /** The JSON's size, read off the rig (the bench runs where the rig's files are). */
    private static function decodedSize(?string $url): int
    {
        if ($url === null) {
            return 0;
        }
        $handle = curl_init($url);
        curl_setopt_array($handle, [\CURLOPT_NOBODY => true, \CURLOPT_SSL_VERIFYPEER => false, \CURLOPT_SSL_VERIFYHOST => 0]);
        curl_exec($handle);
        $length = curl_getinfo($handle, \CURLINFO_CONTENT_LENGTH_DOWNLOAD_T);

        return max(0, $length);
    }

    /**
     * @param array{cpu: non-empty-list<float>, wall: non-empty-list<float>} $samples
     * @param array{cpu: non-empty-list<float>, wall: non-empty-list<float>} $curl    raw curl decoding gzip
     */
    private function row(Scenario $scenario, array $samples, array $curl, int $requests): Row
    {
        $cpu = Spread::of($samples['cpu']);
        $paired = PairedRatios::of($samples['cpu'], $curl['cpu']);
        $extra = [
            'wallUsMedian' => round(Spread::of($samples['wall'])->median, 1),
            'vsCurlGzip' => round($paired->median, 3),
            'note' => $paired->spread(),
        ];

        return new Row($this->name(), $scenario->name(), $scenario->label(), Row::OK, unit: 'µs', min: $cpu->min, median: $cpu->median, max: $cpu->max, requests: $requests, extra: $extra);
    }
}
