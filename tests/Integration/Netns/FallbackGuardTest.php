<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Netns;

use PHPUnit\Framework\Attributes\DataProvider;
use WarmHttp\Client;
use WarmHttp\Exception\RequestException;
use WarmHttp\Pool;
use WarmHttp\Rig\TempDir;
use WarmHttp\Tests\Integration\Relay\MemoryLogger;

/**
 * Issue 13, item 2: dispatch()'s fallback applies the relay's default destination policy. The
 * relay is down, so the app itself would send: every unsafe destination (loopback names and
 * their other spellings, private, link-local, metadata, mapped addresses) must make dispatch()
 * throw, and neither dispatch() nor the end of the unit of work may connect anywhere. In this
 * namespace a fallback that fails open reaches only the recording origin on loopback.
 */
final class FallbackGuardTest extends LoopbackOnlyTestCase
{
    /** @return iterable<string, array{string}> PORT is the recording origin's */
    public static function unsafe(): iterable
    {
        yield 'loopback name' => ['http://evil.example:PORT/x'];
        yield 'IPv6 loopback name' => ['http://evil6.example:PORT/x'];
        yield 'IDN spelling of a loopback name' => ['http://ⓔⓥⓘⓛ.example:PORT/x'];
        yield 'fullwidth spelling' => ['http://ＥＶＩＬ.example:PORT/x'];
        yield 'percent-encoded spelling' => ['http://%65vil.example:PORT/x'];
        yield 'final dot' => ['http://evil.example.:PORT/x'];
        yield 'inet_aton form' => ['http://0x7f.1:PORT/x'];
        yield 'IPv4-mapped loopback' => ['http://[::ffff:127.0.0.1]:PORT/x'];
        yield 'IPv4-compatible loopback' => ['http://[::7f00:1]:PORT/x'];
        yield 'metadata' => ['http://169.254.169.254/latest/meta-data/'];
        yield 'private' => ['http://10.0.0.1:PORT/x'];
        yield 'CGNAT' => ['http://100.64.0.1:PORT/x'];
        yield 'https to a loopback name' => ['https://evil.example:PORT/x'];
    }

    #[DataProvider('unsafe')]
    public function testTheFallbackRefusesWhatTheRelaysDefaultPolicyRefusesAndConnectsNowhere(string $target): void
    {
        $dir = TempDir::create('netns-fallback');
        $origin = GuardOrigin::start();
        $url = str_replace('PORT', (string) $origin->port, $target);
        $client = new Client(['relay' => 'unix://' . $dir->path('relay-down.sock'), 'relay_fallback_dir' => $dir->path('journal'), 'logger' => new MemoryLogger(), 'timeout' => 2]);

        try {
            $client->dispatch($client->createRequest('POST', $url)->withBody($client->createStream('hi')));
            self::fail("dispatch() let $url through to its fallback");
        } catch (RequestException $e) {
            self::assertNotSame('', $e->getMessage());
        } finally {
            Pool::reset(); // the end of the unit of work: would send whatever was journaled
        }

        self::assertSame(0, $origin->connections(0.3), "no connection for $url");
        self::assertSame([], glob($dir->path('journal') . '/*.req') ?: [], 'nothing journaled');
        $dir->remove();
    }

    public function testControlAnAllowedNameIsReachedByTheFallback(): void
    {
        $dir = TempDir::create('netns-fallback');
        $origin = GuardOrigin::start();
        $client = new Client(['relay' => 'unix://' . $dir->path('relay-down.sock'), 'relay_allowed_hosts' => ['public.example'], 'relay_fallback_dir' => $dir->path('journal'), 'logger' => new MemoryLogger(), 'timeout' => 1]);

        $client->dispatch($client->createRequest('POST', "http://public.example:{$origin->port}/x"));
        Pool::reset(); // the origin never answers: the send times out and the entry stays

        self::assertSame(1, $origin->connections(1.0), 'the setup can reach loopback: the refusals above are the policy');
        $dir->remove();
    }
}
