<?php

declare(strict_types=1);

// Usage: php product.php PROJECT_DIR ORIGIN_URL
// Every product class loads against the versions this project resolved (an implementation whose
// signature does not match psr/http-message 1.1, psr/log 2 or symfony/console 6.4 is a fatal
// error here), and a PSR-18 request goes through new WarmHttp\Client().

[, $project, $origin] = $argv;
require $project . '/vendor/autoload.php';
require __DIR__ . '/checks.php';

$classmap = require $project . '/vendor/composer/autoload_classmap.php';
// Bridges and the HTTPlug client load only beside what they bridge to.
$optional = [
    'WarmHttp\\Bridge\\Laravel\\' => 'Illuminate\\Http\\Client\\Factory',
    'WarmHttp\\Bridge\\Discovery\\' => 'Http\\Discovery\\ClassDiscovery',
    'WarmHttp\\Bridge\\Guzzle\\' => 'GuzzleHttp\\Client',
    'WarmHttp\\Httplug\\' => 'Http\\Client\\HttpAsyncClient',
];
$loaded = 0;
foreach (array_keys($classmap) as $class) {
    if (!str_starts_with($class, 'WarmHttp\\')) {
        continue;
    }
    foreach ($optional as $prefix => $needs) {
        if (str_starts_with($class, $prefix) && !class_exists($needs) && !interface_exists($needs)) {
            continue 2;
        }
    }
    class_exists($class) || interface_exists($class) || enum_exists($class) || trait_exists($class) || check(false, "$class loads");
    $loaded++;
}
check($loaded > 50, "$loaded product classes load");
check(!class_exists('WarmHttp\\Bench\\Console\\BenchCommand') && !class_exists('WarmHttp\\Rig\\Rig'), 'no benchmark or rig in the package');

checkWarmRequest(new WarmHttp\Client(['logger' => new Psr\Log\NullLogger()]), $origin);
