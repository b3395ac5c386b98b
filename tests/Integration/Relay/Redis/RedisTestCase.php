<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay\Redis;

use PHPUnit\Framework\TestCase;

/**
 * A real redis-server (AOF, an ephemeral loopback port) for each test, stopped after it; the
 * test is skipped where redis-server or phpredis is missing.
 */
abstract class RedisTestCase extends TestCase
{
    protected RedisServer $redis;

    protected function setUp(): void
    {
        if (!RedisServer::installed()) {
            self::markTestSkipped('needs redis-server and php8.2-redis (scripts/setup installs both)');
        }
        $this->redis = RedisServer::start();
    }

    protected function tearDown(): void
    {
        if (isset($this->redis)) {
            $this->redis->stop();
        }
    }
}
