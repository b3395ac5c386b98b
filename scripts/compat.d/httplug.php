<?php

declare(strict_types=1);

// Usage: php httplug.php PROJECT_DIR ORIGIN_URL
// A package that wants HTTPlug's async client and a PSR-18 client, with WarmHttp and nothing else
// installed: discovery finds WarmHttp for both, and Composer added no other client.

[, $project, $origin] = $argv;
require $project . '/vendor/autoload.php';
require __DIR__ . '/checks.php';

use Composer\InstalledVersions;

foreach (['symfony/http-client', 'guzzlehttp/promises', 'guzzlehttp/guzzle'] as $other) {
    check(!InstalledVersions::isInstalled($other), "$other was not installed");
}
$psr18 = Http\Discovery\Psr18ClientDiscovery::find();
check($psr18 instanceof WarmHttp\Client, 'Psr18ClientDiscovery::find() returns ' . $psr18::class);
$async = Http\Discovery\HttpAsyncClientDiscovery::find();
check($async instanceof WarmHttp\Httplug\AsyncClient, 'HttpAsyncClientDiscovery::find() returns ' . $async::class);
checkWarmRequest($psr18, $origin);

$before = WarmHttp\Pool::stats()->requests;
$request = (new Nyholm\Psr7\Factory\Psr17Factory())->createRequest('GET', $origin . '/psr18');
$status = $async->sendAsyncRequest($request)
    ->then(static fn(Psr\Http\Message\ResponseInterface $response): int => $response->getStatusCode())
    ->wait();
check($status === 200, 'an HTTPlug promise chain settled with ' . var_export($status, true));
check(WarmHttp\Pool::stats()->requests === $before + 1, 'the async request went through the warm pool');
