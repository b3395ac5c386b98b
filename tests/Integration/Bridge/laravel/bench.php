<?php

declare(strict_types=1);

// Before/after for docs/bridges.md: Laravel's Http facade with and without WarmHttp's
// provider, through the rig's latency proxy (20 ms per round trip) to its TLS 1.3 + HTTP/2
// nginx. Run: php tests/Integration/Bridge/laravel/bench.php [rtt_ms] [requests]

use Illuminate\Http\Client\Pool;
use Illuminate\Support\Facades\Http;
use WarmHttp\LaravelTests\LaravelApp;
use WarmHttp\Rig\Rig;

require dirname(__DIR__, 4) . '/build/bridge-laravel/vendor/autoload.php';

$rtt = (float) ($argv[1] ?? 20);
$count = (int) ($argv[2] ?? 20);
$ca = Rig::shared()->caFile();

$scenarios = [
    "$count sequential Http::get" => static function (string $url) use ($count, $ca): void {
        for ($i = 0; $i < $count; ++$i) {
            Http::withOptions(['verify' => $ca])->get($url)->throw();
        }
    },
    "Http::pool of $count" => static function (string $url) use ($count, $ca): void {
        Http::pool(static function (Pool $pool) use ($url, $count, $ca): array {
            $requests = [];
            for ($i = 0; $i < $count; ++$i) {
                $requests[] = $pool->withOptions(['verify' => $ca])->get($url);
            }

            return $requests;
        });
    },
];

printf("| scenario (%.0f ms RTT) | without WarmHttp | with WarmHttp |\n|---|---|---|\n", $rtt);
foreach ($scenarios as $name => $scenario) {
    $cells = [];
    foreach ([false, true] as $withWarmHttp) {
        LaravelApp::boot($withWarmHttp);
        // A fresh proxy per run: nothing warm from the previous one (a new port is a new origin).
        $proxy = Rig::shared()->proxyTo('h2', $rtt);
        $start = hrtime(true);
        $scenario($proxy->url('/fast'));
        $ms = (hrtime(true) - $start) / 1e6;
        $cells[] = sprintf('%.0f ms, %d connection%s', $ms, $proxy->connections(), $proxy->connections() === 1 ? "" : "s");
        $proxy->stop();
    }
    printf("| %s | %s | %s |\n", $name, ...$cells);
}
