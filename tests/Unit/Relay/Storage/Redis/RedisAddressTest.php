<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Storage\Redis;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Storage\Redis\RedisAddress;

final class RedisAddressTest extends TestCase
{
    public function testAPlainAddressWithItsDefaults(): void
    {
        $address = RedisAddress::parse('redis://10.0.0.5');
        self::assertSame(['10.0.0.5', 6379, 0, null, null, false, 'warmhttp:relay:', 2.0], [$address->host, $address->port, $address->database, $address->user, $address->password, $address->tls, $address->prefix, $address->timeout]);
    }

    public function testAuthTlsDatabaseAndOptions(): void
    {
        $address = RedisAddress::parse('rediss://relay:s%40cret@redis.internal:6380/3?prefix=app1:&timeout=0.5&cafile=/etc/ca.pem&verify=0');
        self::assertSame(['redis.internal', 6380, 3, 'relay', 's@cret', true, 'app1:', 0.5, '/etc/ca.pem', false], [$address->host, $address->port, $address->database, $address->user, $address->password, $address->tls, $address->prefix, $address->timeout, $address->cafile, $address->verify]);
        self::assertSame('rediss://redis.internal:6380/3', $address->display());
    }

    public function testSentinelsNameTheMasterOfAService(): void
    {
        $address = RedisAddress::parse('redis+sentinel://:pw@10.0.0.1,10.0.0.2:26380,[::1]:26381/mymaster/2?prefix=a:');
        self::assertSame([['10.0.0.1', 26379], ['10.0.0.2', 26380], ['::1', 26381]], $address->sentinels);
        self::assertSame(['mymaster', 2, 'pw', 'a:'], [$address->service, $address->database, $address->password, $address->prefix]);
        self::assertSame('redis+sentinel://10.0.0.1:26379,10.0.0.2:26380,::1:26381/mymaster/2', $address->display());
        $master = $address->withMaster('10.0.0.9', 6379);
        self::assertSame(['10.0.0.9', 6379, 2, 'pw'], [$master->host, $master->port, $master->database, $master->password]);
    }

    public function testAPasswordWithoutAUserIsRedisAuthWithThePasswordOnly(): void
    {
        $address = RedisAddress::parse('redis://:pw@127.0.0.1:6379/0');
        self::assertSame([null, 'pw'], [$address->user, $address->password]);
    }

    public function testTheRedactedFormHidesCredentials(): void
    {
        self::assertSame('redis://***@h:1/0', RedisAddress::redact('redis://u:secret@h:1/0'));
        self::assertSame('redis://h:1/0', RedisAddress::redact('redis://h:1/0'));
        self::assertSame('redis://***@h:1/0', RedisAddress::redact('redis://:se/cr@et#?@h:1/0'));
    }

    public function testAPasswordMayHoldSlashesAndAnUnencodedAt(): void
    {
        $address = RedisAddress::parse('redis://:se/cr@et#?@h:1/2');
        self::assertSame(['se/cr@et#?', 'h', 1, 2], [$address->password, $address->host, $address->port, $address->database]);
        self::assertStringNotContainsString('cr', $address->display());
    }

    public function testOnlyRedisSchemesAreRedis(): void
    {
        self::assertTrue(RedisAddress::isRedis('redis://h'));
        self::assertTrue(RedisAddress::isRedis('REDISS://h'));
        self::assertTrue(RedisAddress::isRedis('redis+sentinel://h'));
        self::assertFalse(RedisAddress::isRedis('/var/lib/warmhttp/relay.sqlite'));
        self::assertFalse(RedisAddress::isRedis('redis.sqlite'));
        self::assertFalse(RedisAddress::isRedis(null));
    }

    /** @return iterable<string, array{string, string}> */
    public static function refused(): iterable
    {
        yield 'sentinel without a service' => ['sentinel://s1:26379', 'name the master\'s service after the Sentinels'];
        yield 'sentinel with a bad database' => ['redis+sentinel://s1/mymaster/x', 'the service then a database number'];
        yield 'cluster' => ['redis+cluster://n1:7000', 'Redis Cluster is not supported'];
        yield 'several hosts' => ['redis://a:1,b:2/0', 'one host only; for several, name Sentinels'];
        yield 'no host' => ['redis:///0', 'is not a Redis address'];
        yield 'database not a number' => ['redis://h/queue', 'database number'];
        yield 'unknown option' => ['redis://h/0?pool=3', 'unknown option "pool"'];
        yield 'timeout zero' => ['redis://h/0?timeout=0', 'timeout must be a number of seconds > 0'];
    }

    #[DataProvider('refused')]
    public function testWhatIsNotSupportedIsRefusedSayingWhat(string $url, string $message): void
    {
        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage($message);
        RedisAddress::parse($url);
    }

    public function testARefusalNeverShowsThePassword(): void
    {
        try {
            RedisAddress::parse('redis+cluster://u:hunter2@s1:26379');
            self::fail('refused');
        } catch (\InvalidArgumentException $e) {
            self::assertStringNotContainsString('hunter2', $e->getMessage());
        }
        foreach (['redis://:hun/ter2@h:1/x', 'redis://:hun@ter2@h:99999/0', 'redis://:hunter2@@/0'] as $url) {
            try {
                RedisAddress::parse($url);
                self::fail('refused: ' . $url);
            } catch (\InvalidArgumentException $e) {
                self::assertStringNotContainsString('ter2', $e->getMessage());
            }
        }
    }
}
