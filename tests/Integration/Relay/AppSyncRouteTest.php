<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use WarmHttp\Client;
use WarmHttp\Exception\RequestException;
use WarmHttp\Rig\Rig;

/**
 * The Client's side of relay_sync and dispatch() against a real relay and nginx: redirects
 * followed hop by hop through the relay, and the caller's own X-WarmHttp-* headers unable to
 * change what the client asked the relay for.
 */
final class AppSyncRouteTest extends TestCase
{
    private static ?RelayProcess $relay = null;

    public static function tearDownAfterClass(): void
    {
        self::$relay?->remove();
        self::$relay = null;
    }

    public function testFollowsARedirectThroughTheRelay(): void
    {
        $client = self::client(['follow_redirects' => true]);
        $nginx = Rig::shared()->nginx();

        $response = $client->sendRequest($client->createRequest('GET', $nginx->url('plain', '/redirect/1')));

        self::assertSame([200, 'ok'], [$response->getStatusCode(), (string) $response->getBody()]);
        self::assertSame(200, $client->sendAsync($client->createRequest('GET', $nginx->url('plain', '/redirect/2')))->wait()->getStatusCode());
    }

    public function testARelativeLocationResolvesAgainstTheDestinationNotTheRelay(): void
    {
        $client = self::client(['follow_redirects' => true]);

        $response = $client->sendRequest($client->createRequest('GET', Rig::shared()->nginx()->url('plain', '/redirect-to?url=echo/after?x=1')));

        self::assertSame('/echo/after?x=1', (string) $response->getBody());
    }

    public function testAPostRedirectedWith302BecomesAGetWithoutItsBody(): void
    {
        $client = self::client(['follow_redirects' => true]);

        $response = $client->sendRequest($client->createRequest('POST', Rig::shared()->nginx()->url('plain', '/redirect-to?url=/echo-body'))->withBody($client->createStream('payload')));

        self::assertSame([200, ''], [$response->getStatusCode(), (string) $response->getBody()]);
    }

    public function testMaxRedirectsStillHolds(): void
    {
        $client = self::client(['follow_redirects' => true, 'max_redirects' => 2]);

        $this->expectException(RequestException::class);
        $this->expectExceptionMessage('too many redirects');
        $client->sendRequest($client->createRequest('GET', Rig::shared()->nginx()->url('plain', '/redirect/5')));
    }

    public function testWithoutFollowRedirectsTheRedirectIsTheAnswer(): void
    {
        $client = self::client();

        $response = $client->sendRequest($client->createRequest('GET', Rig::shared()->nginx()->url('plain', '/redirect/1')));

        self::assertSame([302, '/fast'], [$response->getStatusCode(), $response->getHeaderLine('Location')]);
    }

    public function testTheCallersModeHeaderCannotTurnASyncRequestIntoAnAsyncOne(): void
    {
        $client = self::client();

        $response = $client->sendRequest($client->createRequest('GET', Rig::shared()->nginx()->url('plain', '/fast'))->withHeader('X-WarmHttp-Mode', 'async'));

        self::assertSame([200, 'ok'], [$response->getStatusCode(), (string) $response->getBody()], 'the destination answered, not the relay\'s 202');
    }

    public function testTheCallersModeHeaderCannotTurnADispatchIntoASyncForward(): void
    {
        $origin = FlakyOrigin::start(200);
        $logger = new MemoryLogger();
        $client = new Client(['relay' => self::relay()->address(), 'logger' => $logger]);

        $client->dispatch($client->createRequest('POST', $origin->url('/mode'))->withHeader('X-WarmHttp-Mode', 'sync')->withHeader('X-WarmHttp-Token', 'forged'));

        self::assertSame([], $logger->contexts('Relay hand-off failed'), 'the relay answered 202, as to any dispatch');
        self::assertTrue($origin->await(static fn(array $rows): bool => \count($rows) === 1));
    }

    /**
     * A dispatch() with `Expect: 100-continue` and a body large enough to arrive after its head:
     * the relay answers 100 Continue, then its 202. The hand-off reads past the 100 (no fallback
     * send: the request goes once), and the kept socket carries nothing of it into the next
     * exchange, which gets its own answer.
     */
    public function testADispatchThatCarriesExpectIsHandedOffOnceAndLeavesTheSocketClean(): void
    {
        $origin = FlakyOrigin::start(200);
        $logger = new MemoryLogger();
        $client = self::client(['logger' => $logger, 'relay_allow_private_networks' => true]);
        $nginx = Rig::shared()->nginx();

        $client->dispatch($client->createRequest('POST', $origin->url('/expect'))->withHeader('Expect', '100-continue')->withBody($client->createStream(str_repeat('x', 1 << 20))));
        $first = $client->sendRequest($client->createRequest('GET', $nginx->url('plain', '/echo/first')));
        $second = $client->sendRequest($client->createRequest('GET', $nginx->url('plain', '/echo/second')));

        self::assertSame([], $logger->contexts('Relay hand-off failed'), 'the relay\'s 202 was read, past its 100 Continue');
        self::assertSame([[200, '/echo/first'], [200, '/echo/second']], [[$first->getStatusCode(), (string) $first->getBody()], [$second->getStatusCode(), (string) $second->getBody()]]);
        self::assertTrue($origin->await(static fn(array $rows): bool => \count($rows) === 1), 'delivered once');
        usleep(200_000);
        self::assertCount(1, $origin->requests(), 'and only once');
    }

    /** @param array<string, mixed> $options */
    private static function client(array $options = []): Client
    {
        return new Client(['relay' => self::relay()->address(), 'relay_sync' => true] + $options);
    }

    private static function relay(): RelayProcess
    {
        return self::$relay ??= RelayProcess::start(['--allow-private-networks']);
    }
}
