<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Bridge\Guzzle;

use PHPUnit\Framework\TestCase;
use WarmHttp\Bridge\Guzzle\ClientCache;
use WarmHttp\Client;

/**
 * The Clients the handler sends through: Guzzle's defaults where a Guzzle request says
 * nothing (no timeout; the 30 s / 10 s are the core Client's, not Guzzle's), one Client per
 * option set. The curl options are read from the Client because nothing else shows them short
 * of a 31 s answer.
 */
final class ClientCacheTest extends TestCase
{
    public function testNoTimeoutUnlessTheRequestOrTheHandlerSetsOne(): void
    {
        self::assertSame([0, 0], self::timeouts((new ClientCache([]))->for([])));
    }

    public function testARequestsTimeoutsWin(): void
    {
        self::assertSame([2500, 1000], self::timeouts((new ClientCache([]))->for(['timeout' => 2.5, 'connect_timeout' => 1.0])));
    }

    public function testTheHandlersOwnTimeoutsStay(): void
    {
        $cache = new ClientCache(['timeout' => 5.0, 'connect_timeout' => 3.0]);

        self::assertSame([5000, 3000], self::timeouts($cache->for([])));
        self::assertSame([1000, 3000], self::timeouts($cache->for(['timeout' => 1.0])));
    }

    public function testOneClientPerOptionSetWhateverTheOrder(): void
    {
        $cache = new ClientCache([]);

        self::assertSame($cache->for(['timeout' => 1.0, 'verify' => false]), $cache->for(['verify' => false, 'timeout' => 1.0]));
        self::assertNotSame($cache->for([]), $cache->for(['timeout' => 1.0]));
    }

    public function testACallbackOrAStreamGetsAClientOfItsOwn(): void
    {
        $cache = new ClientCache([]);
        $progress = static function (): void {};

        self::assertNotSame($cache->for(['progress' => $progress]), $cache->for(['progress' => $progress]));
        self::assertNotSame($cache->for(['debug' => \STDERR]), $cache->for(['debug' => \STDERR]));
    }

    public function testRelaySyncTakesTheH2cOfferAsHttp11(): void
    {
        $cache = new ClientCache(['relay' => 'unix:///run/warmhttp/relay.sock', 'relay_sync' => true]);

        self::assertSame('1.1', self::httpVersion($cache->for(['http_version' => '2-upgrade'])));
        self::assertSame('2-upgrade', self::httpVersion((new ClientCache([]))->for(['http_version' => '2-upgrade'])));
    }

    private static function httpVersion(Client $client): ?string
    {
        $options = (new \ReflectionProperty(Client::class, 'options'))->getValue($client);
        \assert($options instanceof \WarmHttp\Internal\Options);

        return $options->string('http_version');
    }

    /** @return array{mixed, mixed} CURLOPT_TIMEOUT_MS, CURLOPT_CONNECTTIMEOUT_MS */
    private static function timeouts(Client $client): array
    {
        $curl = (new \ReflectionProperty(Client::class, 'curlOptions'))->getValue($client);
        \assert(\is_array($curl));

        return [$curl[\CURLOPT_TIMEOUT_MS] ?? null, $curl[\CURLOPT_CONNECTTIMEOUT_MS] ?? null];
    }
}
