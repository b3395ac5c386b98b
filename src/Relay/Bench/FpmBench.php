<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Bench;

use Symfony\Component\Process\Process;
use WarmHttp\Rig\PhpFpm;
use WarmHttp\Rig\Rig;

/**
 * The seeds/004 experiment: a PHP-FPM endpoint that POSTs to a slow (1 s) upstream, loaded with
 * wrk: requests per minute when it waits for the POST, and when it dispatches it to the relay.
 *
 * @internal benchmark tooling
 */
final class FpmBench
{
    /** @return array<string, array{requests_per_minute: float, latency: string}> */
    public function seeds004(int $workers = 10, int $connections = 10, int $seconds = 10, int $upstreamMs = 1000): array
    {
        $nginx = Rig::shared()->nginx();
        $relay = BenchRelay::start(['--allow-private-networks', '--max-per-host=512', '--max-in-flight=4096']);
        $fpm = PhpFpm::start(__DIR__ . '/fpm', $workers, [
            'WARMHTTP_RELAY' => $relay->address(),
            'WARMHTTP_UPSTREAM' => $nginx->url('plain', '/slow?ms=' . $upstreamMs),
        ]);
        $rows = [];
        foreach (['blocking' => '/blocking.php', 'dispatch' => '/dispatch.php'] as $name => $path) {
            $rows["$name (FPM $workers workers, upstream {$upstreamMs} ms)"] = self::wrk($fpm->url($path), $connections, $seconds);
        }
        $fpm->stop();

        return $rows;
    }

    /** @return array{requests_per_minute: float, latency: string} */
    private static function wrk(string $url, int $connections, int $seconds): array
    {
        $wrk = new Process(['wrk', '-t2', '-c' . $connections, '-d' . $seconds . 's', '--timeout', '30s', $url]);
        $wrk->setTimeout($seconds + 60);
        $wrk->mustRun();
        $out = $wrk->getOutput();
        $rps = preg_match('/Requests\/sec:\s+([\d.]+)/', $out, $m) === 1 ? (float) $m[1] : 0.0;
        $latency = preg_match('/Latency\s+(\S+)/', $out, $l) === 1 ? $l[1] : '?';

        return ['requests_per_minute' => round($rps * 60), 'latency' => $latency];
    }
}
