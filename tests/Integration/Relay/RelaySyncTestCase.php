<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use WarmHttp\Client;
use WarmHttp\Rig\RawOrigin;
use WarmHttp\Rig\Rig;

/**
 * One real relay per test class, with its default policy (no --allow-private-networks), and
 * Clients that route through it with relay_sync.
 */
abstract class RelaySyncTestCase extends TestCase
{
    private static ?RelayProcess $relay = null;

    private static ?RawOrigin $origin = null;

    public static function tearDownAfterClass(): void
    {
        self::$relay?->remove();
        self::$relay = null;
        self::$origin = null;
    }

    /** The rig's raw-bytes origin, kept for the class (the rig holds it only weakly). */
    protected static function origin(): RawOrigin
    {
        return self::$origin ??= Rig::shared()->rawOrigin();
    }

    /** @param array<string, mixed> $options */
    protected static function client(array $options = []): Client
    {
        return new Client(['relay' => self::relay()->address(), 'relay_sync' => true] + $options);
    }

    protected static function relay(): RelayProcess
    {
        return self::$relay ??= RelayProcess::start();
    }
}
