<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Client;

use WarmHttp\Client;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Rig\Certificate;
use WarmHttp\Tests\Integration\Client\Support\LoopbackProxy;
use WarmHttp\Tests\Integration\RigTestCase;

/**
 * proxy and no_proxy: an explicit proxy per client (HTTP forward, CONNECT tunnels, SOCKS5
 * with and without remote name resolution), the environment's when unset, none with false.
 */
final class ProxyTest extends RigTestCase
{
    public function testAPlainRequestGoesThroughAForwardProxy(): void
    {
        $proxy = LoopbackProxy::start('http');
        $url = self::nginxUrl('plain', '/echo/forward');

        $response = self::client(['proxy' => $proxy->url()])->sendRequest(self::client()->createRequest('GET', $url));

        self::assertSame('/echo/forward', (string) $response->getBody());
        self::assertSame([['connection' => 1, 'method' => 'GET', 'target' => $url, 'auth' => '']], $proxy->seen());
    }

    public function testAnHttpsRequestGoesThroughACredentialedConnectTunnelAndStaysWarm(): void
    {
        $proxy = LoopbackProxy::start('http');
        $client = self::client(['proxy' => $proxy->url('user:p%40ss')]);
        $port = self::rig()->nginx()->port('h2');

        for ($i = 0; $i < 3; ++$i) {
            $response = $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', '/echo/tunnel')));
            self::assertSame('/echo/tunnel', (string) $response->getBody());
            self::assertSame('2', $response->getProtocolVersion(), 'HTTP/2 inside the tunnel');
        }

        self::assertSame(
            [['connection' => 1, 'method' => 'CONNECT', 'target' => '127.0.0.1:' . $port, 'auth' => 'Basic ' . base64_encode('user:p@ss')]],
            $proxy->seen(),
            'one tunnel, reused',
        );
    }

    /** An https:// proxy is verified with the client's verify and cafile, as an origin is. */
    public function testAnHttpsProxyIsVerifiedWithTheClientsCafile(): void
    {
        $certificate = self::rig()->certificate();
        $proxy = LoopbackProxy::start('https', [$certificate->certFile(), $certificate->keyFile()]);
        $url = self::nginxUrl('h2', '/echo/tls-proxy');

        $response = self::client(['proxy' => $proxy->url('user:pw', 'https')])->sendRequest(self::client()->createRequest('GET', $url));
        self::assertSame('/echo/tls-proxy', (string) $response->getBody());
        self::assertSame('Basic ' . base64_encode('user:pw'), $proxy->seen()[0]['auth'] ?? null);

        $otherCa = Certificate::generate();
        try {
            (new Client(['proxy' => $proxy->url('', 'https'), 'cafile' => $otherCa->caFile()]))->sendRequest(self::client()->createRequest('GET', $url));
            self::fail('a proxy certificate the cafile does not vouch for must be refused');
        } catch (NetworkException $e) {
            self::assertSame(\CURLE_SSL_CACERT, $e->getCode(), $e->getMessage());
        } finally {
            $otherCa->remove();
        }
        self::assertCount(1, $proxy->seen(), 'nothing was asked of an unverified proxy');
    }

    public function testSocks5ResolvesHereAndSocks5hAtTheProxy(): void
    {
        $proxy = LoopbackProxy::start('socks5');
        $port = self::rig()->nginx()->port('h2');
        $url = \sprintf('https://localhost:%d/echo/socks', $port);

        $local = self::client(['proxy' => \sprintf('socks5://127.0.0.1:%d', $proxy->port)])->sendRequest(self::client()->createRequest('GET', $url));
        $remote = self::client(['proxy' => \sprintf('socks5h://me:secret@127.0.0.1:%d', $proxy->port)])->sendRequest(self::client()->createRequest('GET', $url));

        self::assertSame('/echo/socks', (string) $local->getBody());
        self::assertSame('/echo/socks', (string) $remote->getBody());
        $seen = array_map(static fn(array $entry): array => [$entry['target'], $entry['auth']], $proxy->seen());
        self::assertContains(['ip:127.0.0.1:' . $port, ''], $seen);
        self::assertContains(['name:localhost:' . $port, 'me:secret'], $seen);
    }

    public function testTheEnvironmentsProxyAppliesOnlyWhileTheOptionIsUnset(): void
    {
        $environment = LoopbackProxy::start('http');
        $explicit = LoopbackProxy::start('http');
        $url = self::nginxUrl('plain', '/echo/env');
        putenv('http_proxy=' . $environment->url());
        putenv('no_proxy=127.0.0.1');
        try {
            self::client(['no_proxy' => []])->sendRequest(self::client()->createRequest('GET', $url . '?via=environment'));
            self::client()->sendRequest(self::client()->createRequest('GET', $url . '?via=nothing-as-no_proxy-says'));
            self::client(['proxy' => false])->sendRequest(self::client()->createRequest('GET', $url . '?via=none'));
            self::client(['proxy' => $explicit->url()])->sendRequest(self::client()->createRequest('GET', $url . '?via=explicit'));
            self::client(['proxy' => $explicit->url(), 'no_proxy' => ['127.0.0.1']])->sendRequest(self::client()->createRequest('GET', $url . '?via=none-by-option'));
        } finally {
            putenv('http_proxy');
            putenv('no_proxy');
        }

        self::assertSame([$url . '?via=environment'], array_column($environment->seen(), 'target'));
        self::assertSame([$url . '?via=explicit'], array_column($explicit->seen(), 'target'), 'an explicit proxy ignores the environment\'s no_proxy; the option\'s applies');
    }
}
