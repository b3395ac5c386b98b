<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Discovery;

use Http\Client\HttpAsyncClient;
use Http\Client\HttpClient as HttplugClient;
use Http\Discovery\Strategy\DiscoveryStrategy;
use Psr\Http\Client\ClientInterface;
use WarmHttp\Client;
use WarmHttp\Httplug\AsyncClient;

/**
 * Tells php-http/discovery that the PSR-18 client is WarmHttp\Client, so an SDK that calls
 * Psr18ClientDiscovery::find() gets the warm pool. Registered by register.php when discovery is
 * installed; discovery reads its candidate lists only from its own code and the root project, so
 * a package cannot list itself any other way.
 *
 * HTTPlug's async client (HttpAsyncClientDiscovery) and its sync one are answered with
 * Httplug\AsyncClient when php-http/httplug is installed: the condition names HTTPlug's
 * interface first, so our class is never autoloaded without it.
 *
 * The PSR-17 factories are left to discovery's own list, which finds
 * nyholm/psr7 (our dependency) for all six of them: the Client implements three, and a
 * Client per factory would be a heavier object for the same nyholm messages.
 *
 * @internal
 */
final class Strategy implements DiscoveryStrategy
{
    /** Written into vendor/composer/ by discovery's plugin (1.17+), only when the plugin runs. */
    private const GENERATED = 'Http\\Discovery\\Strategy\\GeneratedDiscoveryStrategy';

    /**
     * @param string $type
     *
     * @return list<array{class: class-string, condition: class-string|list<class-string>}>
     */
    public static function getCandidates($type): array
    {
        $candidate = match ($type) {
            ClientInterface::class => ['class' => Client::class, 'condition' => Client::class],
            HttpAsyncClient::class, HttplugClient::class => ['class' => AsyncClient::class, 'condition' => [HttpAsyncClient::class, AsyncClient::class]],
            default => null,
        };
        if ($candidate === null || self::rootProjectChose($type)) {
            return [];
        }

        return [$candidate];
    }

    /**
     * We are prepended, so we stand before the strategy discovery's Composer plugin generates from
     * the root project's "extra.discovery". A choice the application made there is the stronger
     * word: step aside for it.
     */
    private static function rootProjectChose(string $type): bool
    {
        $generated = self::GENERATED;

        return class_exists($generated)
            && is_subclass_of($generated, DiscoveryStrategy::class)
            && $generated::getCandidates($type) !== [];
    }
}
