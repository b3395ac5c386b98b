<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Bench;

use WarmHttp\Client;
use WarmHttp\Rig\Rig;

/**
 * How long the caller is blocked to get a POST off its hands: relay dispatch, against the
 * `exec('curl … &')` of seeds/004, and against waiting for a cold blocking POST.
 *
 * @internal benchmark tooling
 */
final class DispatchBench
{
    /**
     * @return array<string, array{p50: float, p99: float, n: int}> row name => microseconds blocked
     */
    public function callerBlocked(int $dispatches = 2000, float $rttMs = 20.0, string $spoolSync = 'full'): array
    {
        $rig = Rig::shared();
        $proxy = $rig->proxyTo('h2', $rttMs);
        $url = $proxy->url('/echo-body?bench=dispatch');
        $relay = BenchRelay::start(['--allow-private-networks', '--cafile=' . $rig->caFile(), '--spool-sync=' . $spoolSync]);
        $client = new Client(['relay' => $relay->address()]);
        $body = $client->createStream(str_repeat('x', 1024));
        $client->dispatch($client->createRequest('POST', $url)->withBody($body)); // opens the kept socket
        $samples = [];
        for ($i = 0; $i < $dispatches; ++$i) {
            $start = hrtime(true);
            $client->dispatch($client->createRequest('POST', $url)->withBody($body));
            $samples[] = (hrtime(true) - $start) / 1000;
        }

        return [
            "relay dispatch (1 KiB, spool-sync=$spoolSync)" => Percentiles::of($samples),
            "exec('curl … &')" => $this->execCurl($url, $rig->caFile(), 50),
            "blocking cold POST at {$rttMs} ms RTT" => $this->blockingCold($url, $rig->caFile(), 20),
        ];
    }

    /** @return array{p50: float, p99: float, n: int} */
    private function execCurl(string $url, string $ca, int $count): array
    {
        $samples = [];
        for ($i = 0; $i < $count; ++$i) {
            $start = hrtime(true);
            exec(\sprintf('curl -s --cacert %s -d @- %s < /dev/null > /dev/null 2>&1 &', escapeshellarg($ca), escapeshellarg($url)));
            $samples[] = (hrtime(true) - $start) / 1000;
        }

        return Percentiles::of($samples);
    }

    /** @return array{p50: float, p99: float, n: int} */
    private function blockingCold(string $url, string $ca, int $count): array
    {
        $samples = [];
        for ($i = 0; $i < $count; ++$i) {
            $start = hrtime(true);
            $handle = curl_init($url);
            curl_setopt($handle, \CURLOPT_POSTFIELDS, str_repeat('x', 1024));
            curl_setopt($handle, \CURLOPT_RETURNTRANSFER, true);
            if ($ca !== '') {
                curl_setopt($handle, \CURLOPT_CAINFO, $ca);
            }
            curl_exec($handle);
            $samples[] = (hrtime(true) - $start) / 1000;
        }

        return Percentiles::of($samples);
    }
}
