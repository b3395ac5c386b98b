<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration;

use PHPUnit\Framework\TestCase;
use WarmHttp\Client;
use WarmHttp\Rig\Rig;

/**
 * Tests against the real rig: nginx (TLS 1.3 + HTTP/2, TLS HTTP/1.1, plain), latency proxies
 * and the raw origin, all on loopback ephemeral ports, started once per test process.
 */
abstract class RigTestCase extends TestCase
{
    protected static function rig(): Rig
    {
        return Rig::shared();
    }

    /** @param array<string, mixed> $options */
    protected static function client(array $options = []): Client
    {
        return new Client($options + ['cafile' => self::rig()->caFile()]);
    }

    protected static function nginxUrl(string $listener, string $path = '/fast'): string
    {
        return self::rig()->nginx()->url($listener, $path);
    }
}
