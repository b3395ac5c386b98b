<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Laravel;

use Illuminate\Contracts\Config\Repository;
use Illuminate\Contracts\Foundation\Application;

/**
 * config/warmhttp.php → WarmHttp\Client options. Unset (null) values are dropped so the
 * Client's own defaults apply; anything else is checked by the Client, which names what
 * is wrong.
 *
 * @internal
 */
final class ClientConfig
{
    public static function enabled(Application $app): bool
    {
        return (bool) self::config($app)->get('warmhttp.enabled', true);
    }

    /** @return array<string, mixed> */
    public static function options(Application $app): array
    {
        $options = self::config($app)->get('warmhttp.client', []);
        if (!\is_array($options)) {
            throw new \UnexpectedValueException(\sprintf('config("warmhttp.client") must be an array of WarmHttp\Client options, got %s.', get_debug_type($options)));
        }
        /** @var array<string, mixed> $options */
        $options = array_filter($options, static fn(mixed $value): bool => $value !== null && $value !== '');

        return $options;
    }

    private static function config(Application $app): Repository
    {
        $config = $app->make('config');
        \assert($config instanceof Repository);

        return $config;
    }
}
