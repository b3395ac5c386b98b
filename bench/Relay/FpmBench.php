<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use Symfony\Component\Process\Process;
use WarmHttp\Rig\PhpFpm;
use WarmHttp\Rig\Rig;
use WarmHttp\Rig\TempDir;

/**
 * Real PHP-FPM behind nginx (the rig's PhpFpm), calling out the way an app does, with and
 * without the relay: the first call of each FPM request, and the seeds/004 experiment.
 *
 * @internal benchmark tooling
 */
final class FpmBench
{
    /**
     * One upstream GET per FPM request at $rttMs: the same endpoint through the relay's sync
     * mode (in a plain pool, and in a pool with opcache.preload), by hand on the kept relay
     * socket (relay-only), by hand on a kept socket to a minimal forwarder (the hop floor,
     * HopFloor), and with a plain, cold client, interleaved with the floor. A warm-up of two
     * requests per worker and mode is not counted: it opens the relay's (and the forwarder's)
     * upstream connection and each worker's kept sockets, once per relay and worker lifetime.
     */
    public function firstCall(int $requests, float $rttMs, int $workers = 2): FirstCallResult
    {
        $rig = Rig::shared();
        [$syncProxy, $coldProxy, $floorProxy, $hopProxy] = [$rig->proxyTo('h2', $rttMs), $rig->proxyTo('h2', $rttMs), $rig->proxyTo('h2', $rttMs), $rig->proxyTo('h2', $rttMs)];
        $relay = BenchRelay::start(['--allow-private-networks', '--cafile=' . $rig->caFile()]);
        $hopFloor = HopFloor::start(Requirements::caFile($rig));
        $env = [
            'WARMHTTP_RELAY' => $relay->address(),
            'WARMHTTP_CAFILE' => $rig->caFile(),
            'WARMHTTP_SYNC_UPSTREAM' => $syncProxy->url('/fast'),
            'WARMHTTP_COLD_UPSTREAM' => $coldProxy->url('/fast'),
            'WARMHTTP_HOP_FLOOR' => $hopFloor->address(),
            'WARMHTTP_HOP_UPSTREAM' => $hopProxy->url('/fast'),
        ];
        $fpm = PhpFpm::start(__DIR__ . '/fpm', $workers, $env);
        $preloadIni = TempDir::create('fpm-preload');
        // Its cold calls keep the workers as busy as the plain pool's (below), through a proxy of
        // their own: the cold row's connection count stays the plain pool's.
        $preloadColdProxy = $rig->proxyTo('h2', $rttMs);
        $preloaded = PhpFpm::start(__DIR__ . '/fpm', $workers, ['WARMHTTP_COLD_UPSTREAM' => $preloadColdProxy->url('/fast')] + $env + self::preload($preloadIni));
        try {
            $call = new FpmCall($fpm);
            $preloadCall = new FpmCall($preloaded);
            for ($i = 0; $i < 2 * $workers; ++$i) {
                $call->firstCallMs('sync');
                $call->firstCallMs('cold');
                $preloadCall->firstCallMs('sync');
                $preloadCall->firstCallMs('cold');
                $call->firstCallMs('relay-only');
                $call->firstCallMs('hop-floor');
            }
            $syncProxy->resetCounters();
            $coldProxy->resetCounters();
            $floor = new WarmCurl($floorProxy->url('/fast'), Requirements::caFile($rig));
            $samples = ['sync' => [], 'cold' => [], 'floor' => [], 'preload' => [], 'relay-only' => [], 'hop-floor' => []];
            // The sync call, the preloaded pool's, a relay-only call and a hop-floor call
            // (fpm/first-call.php) take turns in the same place, after cold calls on the same
            // pool and the floor, so the relay (and the forwarder) idled the same: called right
            // after another relayed call, the relay is warm and answered ~0.8 ms sooner
            // (measured). Each pool serves a cold call per worker just before its own measured
            // call (FPM hands connections to its idle workers in turn), so the preloaded pool's
            // workers are as busy as the plain pool's: called once per four rounds they idled
            // ~100 ms between calls and ran on caches gone colder (its row was 0.2-0.5 ms slower
            // than the plain pool's, 0.1 ms faster once both pools took turns alike). The cold
            // row counts the plain pool's cold calls only (preloading would speed up the others).
            for ($i = 0; $i < 4 * $requests; ++$i) {
                $pool = $i % 4 === 1 ? $preloadCall : $call;
                for ($worker = 0; $worker < $workers; ++$worker) {
                    $cold = $pool->firstCallMs('cold');
                    if ($pool === $call) {
                        $samples['cold'][] = $cold;
                    }
                }
                $samples['floor'][] = $floor->callMs();
                match ($i % 4) {
                    0 => $samples['sync'][] = $call->firstCallMs('sync'),
                    1 => $samples['preload'][] = $preloadCall->firstCallMs('sync'),
                    2 => $samples['relay-only'][] = $call->firstCallMs('relay-only'),
                    default => $samples['hop-floor'][] = $call->firstCallMs('hop-floor'),
                };
            }

            return new FirstCallResult(Latencies::of($samples['sync']), Latencies::of($samples['cold']), Latencies::of($samples['floor']), $syncProxy->connections(), $coldProxy->connections(), Latencies::of($samples['preload']), Latencies::of($samples['relay-only']), Latencies::of($samples['hop-floor']));
        } finally {
            $preloaded->stop();
            $preloadIni->remove();
            $fpm->stop();
            $hopFloor->stop();
            $relay->stop();
        }
    }

    /**
     * The environment of a pool with opcache.preload (fpm-preload.php): an ini file in a scan
     * directory of its own, added to the default ones (the leading ":" keeps them).
     *
     * @return array<string, string>
     */
    private static function preload(TempDir $dir): array
    {
        $ini = 'opcache.preload=' . __DIR__ . "/fpm-preload.php\n";
        if (\function_exists('posix_geteuid') && posix_geteuid() === 0) {
            $ini .= "opcache.preload_user=root\n"; // the rig runs FPM as root there; preloading refuses root without it
        }
        file_put_contents($dir->path('99-warmhttp-preload.ini'), $ini);

        return ['PHP_INI_SCAN_DIR' => ':' . $dir->path()];
    }

    /**
     * seeds/004: an FPM endpoint POSTing to an upstream that takes $upstreamMs, loaded by wrk
     * for $seconds: waiting for the POST, then handing it to the relay with dispatch().
     *
     * @return array{blocking: WrkResult, dispatch: WrkResult}
     */
    public function seeds004(int $workers, int $connections, int $seconds, int $upstreamMs = 1000): array
    {
        $relay = BenchRelay::start(['--allow-private-networks', '--max-per-host=512', '--max-in-flight=4096']);
        $fpm = PhpFpm::start(__DIR__ . '/fpm', $workers, [
            'WARMHTTP_RELAY' => $relay->address(),
            'WARMHTTP_UPSTREAM' => Rig::shared()->nginx()->url('plain', '/slow?ms=' . $upstreamMs),
        ]);
        try {
            $blocking = self::wrk($fpm->url('/blocking.php'), $connections, $seconds);
            // dispatch() falls back to a send after the response when the relay does not take
            // a request, and logs it (to the FPM log): count those, they did not measure the relay.
            $before = substr_count($fpm->errorLog(), 'hand-off failed');
            $dispatch = self::wrk($fpm->url('/dispatch.php'), $connections, $seconds);

            return ['blocking' => $blocking, 'dispatch' => $dispatch->withFallbacks(substr_count($fpm->errorLog(), 'hand-off failed') - $before)];
        } finally {
            $fpm->stop();
            // Deliveries to the slow upstream are still in flight: nothing left to measure.
            $relay->stop(0.5);
        }
    }

    private static function wrk(string $url, int $connections, int $seconds): WrkResult
    {
        $wrk = new Process(['wrk', '-t2', '-c' . $connections, '-d' . $seconds . 's', '--timeout', '30s', $url]);
        $wrk->setTimeout($seconds + 60);
        $wrk->mustRun();

        return WrkResult::parse($wrk->getOutput());
    }
}
