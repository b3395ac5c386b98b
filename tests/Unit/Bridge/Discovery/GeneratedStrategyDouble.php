<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Bridge\Discovery;

use Http\Discovery\Strategy\DiscoveryStrategy;

/**
 * Stands in for the Http\Discovery\Strategy\GeneratedDiscoveryStrategy that discovery's Composer
 * plugin writes from a root project's "extra.discovery" (aliased to that name by the test).
 */
final class GeneratedStrategyDouble implements DiscoveryStrategy
{
    /** @var array<string, list<array{class: string}>> */
    private static array $pins = [];

    public static function pin(string $type, string $class): void
    {
        self::$pins[$type] = [['class' => $class]];
    }

    public static function unpinAll(): void
    {
        self::$pins = [];
    }

    /**
     * @param string $type
     *
     * @return list<array{class: string}>
     */
    public static function getCandidates($type): array
    {
        return self::$pins[$type] ?? [];
    }
}
