<?php

declare(strict_types=1);

// Usage: php laravel.php PROJECT_DIR ORIGIN_URL
// Boots a bare Laravel application on PROJECT_DIR (no provider named by us: package
// auto-discovery must find WarmHttp's) and sends one Http::get through it.

[, $project, $origin] = $argv;
require $project . '/vendor/autoload.php';
require __DIR__ . '/checks.php';

use Illuminate\Foundation\Application;
use Illuminate\Foundation\Bootstrap;
use Illuminate\Support\Facades\Http;
use WarmHttp\Bridge\Laravel\WarmFactory;
use WarmHttp\Bridge\Laravel\WarmHttpServiceProvider;

foreach (['bootstrap/cache', 'storage/logs', 'storage/framework/cache', 'config'] as $dir) {
    is_dir("$project/$dir") || mkdir("$project/$dir", 0777, true);
}
@unlink("$project/bootstrap/cache/packages.php"); // the manifest must come from this install
// Laravel 10 refuses to boot without config/app.php; 11 and 12 merge it over their defaults.
file_put_contents("$project/config/app.php", "<?php return ['name' => 'warmhttp-compat'];\n");

$app = new Application($project);
$app->bootstrapWith([
    Bootstrap\LoadEnvironmentVariables::class,
    Bootstrap\LoadConfiguration::class,
    Bootstrap\RegisterFacades::class,
    Bootstrap\RegisterProviders::class,
    Bootstrap\BootProviders::class,
]);

check($app->getProviders(WarmHttpServiceProvider::class) !== [], 'Laravel ' . $app->version() . ' discovered WarmHttpServiceProvider');
check(Http::getFacadeRoot() instanceof WarmFactory, 'the Http facade is WarmHttp\'s factory');
$before = WarmHttp\Pool::stats()->requests;
check(Http::get($origin . '/laravel')->body() === 'warmhttp-compat GET /laravel', 'Http::get answers');
check(WarmHttp\Pool::stats()->requests === $before + 1, 'Http::get went through the warm pool');
