<?php

declare(strict_types=1);

// Usage: php pinned.php PROJECT_DIR ORIGIN_URL
// The root project pinned Guzzle in "extra.discovery": WarmHttp's strategy steps aside for it.

[, $project, $origin] = $argv;
require $project . '/vendor/autoload.php';
require __DIR__ . '/checks.php';

$first = [...Http\Discovery\ClassDiscovery::getStrategies()][0];
check($first === WarmHttp\Bridge\Discovery\Strategy::class, 'WarmHttp\'s strategy stands first');
$found = Http\Discovery\Psr18ClientDiscovery::find();
check($found instanceof GuzzleHttp\Client, 'the root project\'s pin wins: find() returns ' . $found::class);
