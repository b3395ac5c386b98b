<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\App;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\Options;
use WarmHttp\Relay\App\SyncRoute;
use WarmHttp\Relay\Outbound\SyncSettings;

final class SyncRouteTest extends TestCase
{
    /** @return iterable<string, array{array<string, mixed>}> */
    public static function clients(): iterable
    {
        yield 'the defaults' => [[]];
        yield 'whole seconds and a CA file' => [['cafile' => __FILE__, 'timeout' => 10, 'connect_timeout' => 3, 'read_timeout' => 5]];
        yield 'a path to encode' => [['cafile' => __DIR__ . '/../App/' . basename(__FILE__), 'verify' => false]];
        yield 'no limit' => [['timeout' => 0, 'connect_timeout' => 0]];
        yield 'fractions' => [['timeout' => 2.5, 'read_timeout' => 0.25]];
        yield 'a fraction of the connect timeout only' => [['connect_timeout' => 0.1]];
        yield 'a float of whole seconds' => [['timeout' => 7.0]];
        yield 'huge' => [['timeout' => 1e16]];
        yield 'just below huge' => [['timeout' => 999999999999999.0]];
    }

    /** @param array<string, mixed> $given */
    #[DataProvider('clients')]
    public function testItsSettingsLineIsSyncSettings(array $given): void
    {
        $options = Options::fromArray($given + ['relay' => 'unix:///run/relay.sock', 'relay_sync' => true]);

        self::assertSame(SyncSettings::HEADER . ': ' . SyncSettings::of($options), SyncRoute::settingsLine($options));
    }
}
