<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Client;

use WarmHttp\Client;
use WarmHttp\Internal\CurlPool;
use WarmHttp\Tests\Integration\RigTestCase;

/**
 * Easy handles keep their options between transfers of the same client, method and origin
 * (CurlPool::launchKept): nothing of one client's or method's options may reach another's
 * request, whatever order they come in.
 */
final class KeptOptionsTest extends RigTestCase
{
    public function testClientsTakingTurnsKeepTheirOwnOptions(): void
    {
        $url = self::nginxUrl('h2', '/headers');
        $http11 = self::client(['http_version' => '1.1', 'decode_content' => false]);
        $default = self::client();
        for ($i = 0; $i < 4; ++$i) {
            $plain = $http11->sendRequest($http11->createRequest('GET', $url));
            $gzip = $default->sendRequest($default->createRequest('GET', $url));

            self::assertSame('1.1', $plain->getProtocolVersion());
            self::assertStringNotContainsStringIgnoringCase('accept-encoding', (string) $plain->getBody());
            // Not asserted: $gzip's version. libcurl 7.88 lets a request that would take HTTP/2
            // reuse the HTTP/1.1 connection $http11 left idle (so it was before kept options).
            self::assertStringContainsStringIgnoringCase('accept-encoding: gzip', (string) $gzip->getBody());
        }
    }

    public function testCancelledTransfersLeaveNoEmptyProfileBehind(): void
    {
        // Each client's options are a profile of their own (the relay's carry a caller's
        // settings, address and port): a kept handle taken by a transfer that is then cancelled
        // goes back reset, and its profile must not stay behind as an empty list, or profiles
        // that came and went would pile up in a long-lived process.
        $url = self::nginxUrl('h2', '/fast');
        for ($i = 0; $i < 5; ++$i) {
            $client = self::client(['timeout' => 20 + $i / 1000]);
            $client->sendRequest($client->createRequest('GET', $url));
            $client->sendAsync($client->createRequest('GET', $url))->cancel();
        }

        $kept = (new \ReflectionProperty(CurlPool::class, 'kept'))->getValue(CurlPool::get());
        self::assertIsArray($kept);
        foreach ($kept as $profile => $handles) {
            self::assertNotSame([], $handles, "profile {$profile} left behind empty");
        }
    }

    public function testMethodsAndUrlsTakingTurnsOnOneClient(): void
    {
        $client = self::client();
        foreach (['GET', 'HEAD', 'DELETE', 'GET', 'HEAD', 'GET'] as $i => $method) {
            $path = '/echo/' . $method . $i;
            $response = $client->sendRequest($client->createRequest($method, self::nginxUrl('h2', $path)));

            self::assertSame(200, $response->getStatusCode(), $method);
            self::assertSame($method === 'HEAD' ? '' : $path, (string) $response->getBody(), $method);
        }
    }

    public function testAChangedRequestAfterKeptOnesSendsWhatItSays(): void
    {
        $client = self::client();
        $url = self::nginxUrl('h2', '/headers');
        $client->sendRequest($client->createRequest('GET', $url));
        $changed = $client->sendRequest($client->createRequest('GET', $url)->withHeader('Accept-Language', 'de'));
        $again = $client->sendRequest($client->createRequest('GET', $url));

        self::assertStringContainsStringIgnoringCase('accept-language: de', (string) $changed->getBody());
        self::assertStringNotContainsStringIgnoringCase('accept-language: de', (string) $again->getBody());
    }

    public function testARequestWithABodyAfterKeptOnes(): void
    {
        $client = self::client();
        $url = self::nginxUrl('h2', '/echo-body');
        $client->sendRequest($client->createRequest('POST', $url));
        $request = $client->createRequest('POST', $url);
        $request->getBody()->write('{"a":1}');
        $withBody = $client->sendRequest($request);
        $empty = $client->sendRequest($client->createRequest('POST', $url));

        self::assertSame('{"a":1}', (string) $withBody->getBody());
        self::assertSame('', (string) $empty->getBody());
    }

    public function testManyOriginsAndClientsStayWithinTheSpareHandles(): void
    {
        $clients = array_map(static fn(int $i): Client => self::client(['timeout' => 10 + $i]), range(1, 70));
        foreach ($clients as $i => $client) {
            $path = '/echo/c' . $i;
            self::assertSame($path, (string) $client->sendRequest($client->createRequest('GET', self::nginxUrl($i % 2 === 0 ? 'h2' : 'h1tls', $path)))->getBody());
        }
    }
}
