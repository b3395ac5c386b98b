<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use WarmHttp\Client;
use WarmHttp\Rig\Rig;

/**
 * How long the caller is blocked to get a 1 KiB POST off its hands, in µs: relay dispatch(),
 * the `exec('curl … &')` of seeds/004, and waiting for a cold blocking POST.
 *
 * @internal benchmark tooling
 */
final class DispatchBench
{
    private const BODY_BYTES = 1024;

    /** What one dispatch of the 1 KiB POST below puts on the relay socket (1,215 bytes measured). */
    public const WIRE_BYTES = 1215;

    /**
     * One client, its relay socket opened by a first (untimed) dispatch, then $dispatches timed
     * ones while the relay delivers the earlier ones upstream, as it would in production.
     */
    public function relayDispatch(int $dispatches, float $rttMs, string $spoolSync): Latencies
    {
        $rig = Rig::shared();
        $proxy = $rig->proxyTo('h2', $rttMs);
        $relay = BenchRelay::start(['--allow-private-networks', '--cafile=' . $rig->caFile(), '--spool-sync=' . $spoolSync]);
        try {
            $watch = new HandOffWatch();
            $client = new Client(['relay' => $relay->address(), 'logger' => $watch]);
            $url = $proxy->url('/echo-body?bench=relay-dispatch');
            $body = $client->createStream(str_repeat('x', self::BODY_BYTES));
            $client->dispatch($client->createRequest('POST', $url)->withBody($body));
            $samples = [];
            for ($i = 0; $i < $dispatches; ++$i) {
                $request = $client->createRequest('POST', $url)->withBody($body);
                $start = hrtime(true);
                $client->dispatch($request);
                $samples[] = (hrtime(true) - $start) / 1e3;
            }
            $watch->assertNoFallback($dispatches + 1);

            return Latencies::of($samples);
        } finally {
            $relay->stop();
        }
    }

    /**
     * exec() returns once the shell has forked curl into the background; the curls then run
     * on: the bench waits for them at the origin so they do not load the next row.
     */
    public function execCurl(int $count, float $rttMs): Latencies
    {
        $rig = Rig::shared();
        $proxy = $rig->proxyTo('h2', $rttMs);
        $run = bin2hex(random_bytes(4));
        $origin = OriginLog::follow($rig->nginx(), 'exec=' . $run . '&');
        $samples = [];
        for ($i = 0; $i < $count; ++$i) {
            $url = $proxy->url(\sprintf('/echo-body?exec=%s&id=%d', $run, $i));
            $command = \sprintf('curl -s --cacert %s --data-binary %s %s > /dev/null 2>&1 &', escapeshellarg($rig->caFile()), escapeshellarg(str_repeat('x', self::BODY_BYTES)), escapeshellarg($url));
            $start = hrtime(true);
            exec($command);
            $samples[] = (hrtime(true) - $start) / 1e3;
        }
        $origin->await($count, 10.0);

        return Latencies::of($samples);
    }

    /** A new curl handle per call: DNS, TCP and TLS paid again, as in a fresh FPM request. */
    public function blockingColdPost(int $count, float $rttMs): Latencies
    {
        $rig = Rig::shared();
        $proxy = $rig->proxyTo('h2', $rttMs);
        $samples = [];
        for ($i = 0; $i < $count; ++$i) {
            $start = hrtime(true);
            $handle = curl_init($proxy->url('/echo-body?bench=blocking-cold'));
            curl_setopt_array($handle, [\CURLOPT_POSTFIELDS => str_repeat('x', self::BODY_BYTES), \CURLOPT_RETURNTRANSFER => true, \CURLOPT_CAINFO => Requirements::caFile($rig)]);
            $ok = curl_exec($handle) !== false && curl_getinfo($handle, \CURLINFO_RESPONSE_CODE) === 200;
            $samples[] = (hrtime(true) - $start) / 1e3;
            if (!$ok) {
                throw new \RuntimeException('The blocking cold POST failed: ' . curl_error($handle));
            }
        }

        return Latencies::of($samples);
    }
}
