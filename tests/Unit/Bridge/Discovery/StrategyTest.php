<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Bridge\Discovery;

use GuzzleHttp\Client as GuzzleClient;
use Http\Client\HttpAsyncClient;
use Http\Client\HttpClient as HttplugClient;
use Http\Discovery\ClassDiscovery;
use Http\Discovery\HttpAsyncClientDiscovery;
use Http\Discovery\Psr17FactoryDiscovery;
use Http\Discovery\Psr18ClientDiscovery;
use Nyholm\Psr7\Factory\Psr17Factory;
use PHPUnit\Framework\TestCase;
use Psr\Http\Client\ClientInterface;
use Psr\Http\Message\RequestFactoryInterface;
use Psr\Http\Message\ResponseFactoryInterface;
use Psr\Http\Message\StreamFactoryInterface;
use WarmHttp\Bridge\Discovery\Strategy;
use WarmHttp\Client;
use WarmHttp\Httplug\AsyncClient;

final class StrategyTest extends TestCase
{
    private const GENERATED = 'Http\\Discovery\\Strategy\\GeneratedDiscoveryStrategy';

    protected function tearDown(): void
    {
        GeneratedStrategyDouble::unpinAll();
        ClassDiscovery::clearCache();
    }

    public function testAnswersPsr18WithTheClient(): void
    {
        self::assertSame([['class' => Client::class, 'condition' => Client::class]], Strategy::getCandidates(ClientInterface::class));
    }

    public function testLeavesThePsr17FactoriesToDiscoverysOwnList(): void
    {
        foreach ([RequestFactoryInterface::class, ResponseFactoryInterface::class, StreamFactoryInterface::class] as $type) {
            self::assertSame([], Strategy::getCandidates($type), $type);
        }
        self::assertInstanceOf(Psr17Factory::class, Psr17FactoryDiscovery::findRequestFactory());
    }

    public function testAnswersHttplugsAsyncAndSyncClientWithTheAsyncClient(): void
    {
        $expected = [['class' => AsyncClient::class, 'condition' => [HttpAsyncClient::class, AsyncClient::class]]];

        self::assertSame($expected, Strategy::getCandidates(HttpAsyncClient::class));
        self::assertSame($expected, Strategy::getCandidates(HttplugClient::class));
    }

    public function testHttpAsyncClientDiscoveryFindsTheAsyncClientOnTheWarmPool(): void
    {
        // Symfony's HttplugClient is installed here too (require-dev) and first in discovery's list.
        self::assertTrue(class_exists(\Symfony\Component\HttpClient\HttplugClient::class));

        self::assertInstanceOf(AsyncClient::class, HttpAsyncClientDiscovery::find());
    }

    public function testTheAutoloaderRegistersItFirst(): void
    {
        $strategies = [...ClassDiscovery::getStrategies()];

        self::assertSame(Strategy::class, $strategies[0]);
    }

    public function testFindReturnsTheClientThoughGuzzleAndSymfonyAreInstalled(): void
    {
        // This checkout has both (require-dev), as an application using the Guzzle bridge has Guzzle.
        self::assertTrue(class_exists(GuzzleClient::class));
        self::assertTrue(class_exists(\Symfony\Component\HttpClient\Psr18Client::class));

        self::assertInstanceOf(Client::class, Psr18ClientDiscovery::find());
    }

    public function testStepsAsideForTheRootProjectsOwnChoice(): void
    {
        if (!class_exists(self::GENERATED)) {
            class_alias(GeneratedStrategyDouble::class, self::GENERATED);
        }
        GeneratedStrategyDouble::pin(ClientInterface::class, GuzzleClient::class);

        // Only the candidates: discovery decides once per process whether the generated strategy
        // exists, before this alias. Next in its list, the generated strategy answers Guzzle.
        self::assertSame([], Strategy::getCandidates(ClientInterface::class));
    }

    public function testAnswersWhenTheRootProjectPinnedOnlyOtherTypes(): void
    {
        if (!class_exists(self::GENERATED)) {
            class_alias(GeneratedStrategyDouble::class, self::GENERATED);
        }
        GeneratedStrategyDouble::pin(RequestFactoryInterface::class, Psr17Factory::class);

        self::assertSame(Client::class, Strategy::getCandidates(ClientInterface::class)[0]['class'] ?? null);
    }
}
