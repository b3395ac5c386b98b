<?php

declare(strict_types=1);

namespace WarmHttp\LaravelTests;

use Illuminate\Foundation\Application;
use Illuminate\Foundation\Bootstrap;
use Illuminate\Support\Facades\Facade;
use WarmHttp\Bridge\Laravel\WarmHttpServiceProvider;

/**
 * Boots a real Laravel 12 application (Application::configure(), as bootstrap/app.php does)
 * in a scratch base path, with or without WarmHttp's provider.
 */
final class LaravelApp
{
    /** @param array<string, mixed>|null $warmhttpConfig config/warmhttp.php of the app; null: the package's */
    public static function boot(bool $withWarmHttp = true, ?array $warmhttpConfig = null): Application
    {
        $base = self::basePath($warmhttpConfig);
        Facade::clearResolvedInstances();
        Bootstrap\RegisterProviders::flushState(); // withProviders() merges into a static list
        $builder = Application::configure(basePath: $base);
        $app = ($withWarmHttp ? $builder->withProviders([WarmHttpServiceProvider::class]) : $builder)->create();
        // The console kernel's bootstrappers minus HandleExceptions, which would install PHP
        // error and exception handlers that outlive the test.
        $app->bootstrapWith([
            Bootstrap\LoadEnvironmentVariables::class,
            Bootstrap\LoadConfiguration::class,
            Bootstrap\RegisterFacades::class,
            Bootstrap\SetRequestForConsole::class,
            Bootstrap\RegisterProviders::class,
            Bootstrap\BootProviders::class,
        ]);

        return $app;
    }

    /** @param array<string, mixed>|null $warmhttpConfig */
    private static function basePath(?array $warmhttpConfig): string
    {
        $base = sys_get_temp_dir() . '/warmhttp-laravel-' . getmypid() . '-' . bin2hex(random_bytes(4));
        foreach (['bootstrap/cache', 'storage/logs', 'storage/framework/cache', 'config'] as $dir) {
            mkdir($base . '/' . $dir, 0777, true);
        }
        if ($warmhttpConfig !== null) {
            file_put_contents($base . '/config/warmhttp.php', '<?php return ' . var_export($warmhttpConfig, true) . ';');
        }
        register_shutdown_function(static fn() => exec('rm -rf ' . escapeshellarg($base)));

        return $base;
    }
}
