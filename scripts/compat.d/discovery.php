<?php

declare(strict_types=1);

// Usage: php discovery.php PROJECT_DIR ORIGIN_URL
// An SDK that discovers its PSR-18 client (meilisearch-php) gets WarmHttp, and Composer did not
// add symfony/http-client.

[, $project, $origin] = $argv;
require $project . '/vendor/autoload.php';
require __DIR__ . '/checks.php';

use Composer\InstalledVersions;

check(!InstalledVersions::isInstalled('symfony/http-client'), 'symfony/http-client was not installed');
$found = Http\Discovery\Psr18ClientDiscovery::find();
check($found instanceof WarmHttp\Client, 'Psr18ClientDiscovery::find() returns ' . $found::class);

// meilisearch-php 1.x: Meilisearch\Client::$http is its Http\Client, which holds the PSR-18 client in $http.
$meilisearch = new Meilisearch\Client('http://127.0.0.1:7700');
$held = property(property($meilisearch, 'http'), 'http');
check($held instanceof WarmHttp\Client, 'new Meilisearch\Client() holds ' . get_debug_type($held));
checkWarmRequest($held, $origin);
