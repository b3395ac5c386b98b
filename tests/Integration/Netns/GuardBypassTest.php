<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Netns;

use PHPUnit\Framework\Attributes\DataProvider;
use WarmHttp\Rig\RawOrigin;
use WarmHttp\Tests\Integration\Relay\RelayProcess;

/**
 * Issue 13, item 1: the guard checks what curl connects to. Each target spells evil.example
 * (127.0.0.1 in this namespace) so that curl, not the guard, would map it to that name: IDNA,
 * URL decoding, case, a final dot, a second "@". The namespace's hosts file also gives the raw
 * spellings a public address, as an attacker's DNS would, so a guard that checks the raw name
 * passes them. A real relay without --allow-private-networks must refuse each at the door, in
 * async and sync mode, and the origin on loopback must see no connection at all.
 */
final class GuardBypassTest extends LoopbackOnlyTestCase
{
    private static ?RelayProcess $relay = null;

    public static function tearDownAfterClass(): void
    {
        self::$relay?->remove();
        self::$relay = null;
    }

    /** @return iterable<string, array{string}> targets; PORT is the recording origin's */
    public static function spellingsOfEvil(): iterable
    {
        yield 'IDN, enclosed letters' => ['http://ⓔⓥⓘⓛ.example:PORT/x'];
        yield 'IDN, fullwidth letters' => ['http://ＥＶＩＬ.example:PORT/x'];
        yield 'IDN, ideographic full stop' => ["http://evil\u{3002}example:PORT/x"];
        yield 'percent-encoded letter' => ['http://%65vil.example:PORT/x'];
        yield 'percent-encoded dot' => ['http://evil%2eexample:PORT/x'];
        yield 'upper case' => ['http://EVIL.EXAMPLE:PORT/x'];
        yield 'final dot' => ['http://evil.example.:PORT/x'];
        yield 'IPv6 name' => ['http://evil6.example:PORT/x'];
        yield 'user information' => ['http://user@evil.example:PORT/x'];
        yield 'backslash before @' => ['http://evil.example:PORT\\@public.example/x'];
        yield 'two @' => ['http://a@public.example@evil.example:PORT/x'];
        yield 'https' => ['https://ⓔⓥⓘⓛ.example:PORT/x'];
    }

    #[DataProvider('spellingsOfEvil')]
    public function testEverySpellingOfALoopbackNameIsRefusedAtTheDoorWithNoConnection(string $target): void
    {
        $relay = self::$relay ??= RelayProcess::start(['--timeout=2']);
        $origin = GuardOrigin::start();
        $url = str_replace('PORT', (string) $origin->port, $target);

        $async = $relay->raw("POST $url HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi");
        // A sync request is guarded when its Client asks (relay_sync_guard): it must hold then.
        $sync = $relay->raw("GET $url HTTP/1.1\r\nX-WarmHttp-Mode: sync\r\nX-WarmHttp-Guard: on\r\n\r\n");

        self::assertSame(0, $origin->connections(0.5), "no connection to the origin for $url; the relay answered:\n$async\n$sync");
        self::assertMatchesRegularExpression('~^HTTP/1\.1 40[03] ~', $async, 'async: refused at the door, never spooled');
        self::assertMatchesRegularExpression('~^HTTP/1\.1 40[03] ~', $sync, 'sync: refused before any connect');
        self::assertStringContainsString('X-WarmHttp-Error: ', $async);
    }

    public function testTheRecordingOriginSeesAConnectionWhenTheNameIsAllowed(): void
    {
        $origin = GuardOrigin::start();
        $relay = RelayProcess::start(['--allow-host=evil.example', '--timeout=2']);
        try {
            $async = $relay->raw("POST http://evil.example:{$origin->port}/x HTTP/1.1\r\nContent-Length: 0\r\n\r\n");

            self::assertStringStartsWith('HTTP/1.1 202 ', $async);
            self::assertGreaterThan(0, $origin->connections(5.0), 'the control: a delivery the guard allows reaches the recording origin');
        } finally {
            $relay->remove();
        }
    }

    public function testProxyVariablesInTheRelaysEnvironmentRouteNothing(): void
    {
        $proxy = GuardOrigin::start();
        $origin = RawOrigin::start();
        $relay = self::startWithEnvironment(['--allow-host=public.example', '--timeout=2'], [
            'http_proxy' => "http://127.0.0.1:{$proxy->port}",
            'https_proxy' => "http://127.0.0.1:{$proxy->port}",
            'HTTPS_PROXY' => "http://127.0.0.1:{$proxy->port}",
            'ALL_PROXY' => "http://127.0.0.1:{$proxy->port}",
            'all_proxy' => "http://127.0.0.1:{$proxy->port}",
        ]);
        try {
            $sync = $relay->raw("GET http://public.example:{$origin->port()}/ok HTTP/1.1\r\nX-WarmHttp-Mode: sync\r\n\r\n");
            $guarded = $relay->raw("GET http://public.example:{$origin->port()}/ok HTTP/1.1\r\nX-WarmHttp-Mode: sync\r\nX-WarmHttp-Guard: on\r\n\r\n");
            $async = $relay->raw("POST http://public.example:{$origin->port()}/ok HTTP/1.1\r\nContent-Length: 0\r\n\r\n");

            self::assertStringStartsWith('HTTP/1.1 200 ', $sync, 'sync: answered by the origin itself');
            self::assertStringStartsWith('HTTP/1.1 200 ', $guarded, 'guarded sync (pinned): answered by the origin itself');
            self::assertStringStartsWith('HTTP/1.1 202 ', $async);
            self::assertTrue(self::awaitRequest($origin, 'POST /ok'), 'async: delivered to the origin itself');
            self::assertSame(0, $proxy->connections(0.3), 'no connection to the proxy the environment names');
        } finally {
            $relay->remove();
            $origin->stop();
        }
    }

    /**
     * Symfony Process gives a child $_ENV over getenv(): the variables are set there only for
     * the start, so no other test inherits them.
     *
     * @param list<string>          $options
     * @param array<string, string> $variables
     */
    private static function startWithEnvironment(array $options, array $variables): RelayProcess
    {
        $saved = $_ENV;
        $_ENV = $variables + $_ENV;
        try {
            return RelayProcess::start($options);
        } finally {
            $_ENV = $saved;
        }
    }

    private static function awaitRequest(RawOrigin $origin, string $methodAndPath): bool
    {
        $deadline = microtime(true) + 10.0;
        while (microtime(true) < $deadline) {
            if (isset($origin->stats()['methods'][$methodAndPath])) {
                return true;
            }
            usleep(20_000);
        }

        return false;
    }
}
