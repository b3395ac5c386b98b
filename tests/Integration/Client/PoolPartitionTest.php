<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Client;

use Psr\Http\Message\ResponseInterface;
use WarmHttp\Client;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Tests\Integration\Client\Support\LoopbackProxy;
use WarmHttp\Tests\Integration\RigTestCase;

/**
 * The pool is process-wide, so clients with different identities reach one origin through the
 * same multi handle: a connection (or a resumed TLS session) made for one must never carry a
 * request of another. Each request is tagged (?c=NAME) and nginx logs, per request, its
 * connection and the client certificate it was verified with.
 */
final class PoolPartitionTest extends RigTestCase
{
    private static string $testId = '';

    protected function setUp(): void
    {
        self::$testId = bin2hex(random_bytes(4));
    }

    public function testClientCertificatesAndTlsSettingsNeverShareAConnection(): void
    {
        $certificate = self::rig()->certificate();
        [$aliceCert, $aliceKey] = $certificate->client('alice');
        [$bobCert, $bobKey] = $certificate->client('bob');
        $clients = [
            'none' => self::client(),
            'alice' => self::client(['cert' => $aliceCert, 'ssl_key' => $aliceKey]),
            'bob' => self::client(['cert' => $bobCert, 'ssl_key' => $bobKey]),
            'noverify' => self::client(['verify' => false]),
            'nocafile' => new Client(['verify' => false, 'cert' => $aliceCert, 'ssl_key' => $aliceKey]),
        ];
        $expected = ['none' => 'NONE ', 'alice' => 'SUCCESS CN=alice', 'bob' => 'SUCCESS CN=bob', 'noverify' => 'NONE ', 'nocafile' => 'SUCCESS CN=alice'];

        // One after another (each finds the others' idle connections in the cache), then all at once.
        for ($round = 0; $round < 3; ++$round) {
            foreach ($clients as $name => $client) {
                self::assertSame($expected[$name], self::whoami($client, $name, 'seq' . $round));
            }
        }
        $pending = [];
        foreach ($clients as $name => $client) {
            for ($i = 0; $i < 5; ++$i) {
                $pending[] = [$name, $client->sendAsync($client->createRequest('GET', self::nginxUrl('mtls_optional', "/whoami?c={$name}&i=par{$i}&t=" . self::testId())))];
            }
        }
        foreach ($pending as [$name, $response]) {
            self::assertSame($expected[$name], (string) $response->wait()->getBody());
        }

        $byConnection = self::clientsByConnection(\count($clients) * 8);
        foreach ($byConnection as $connection => $names) {
            self::assertCount(1, $names, \sprintf('connection %s carried requests of %s', $connection, implode(', ', array_keys($names))));
        }
        self::assertGreaterThanOrEqual(\count($clients), \count($byConnection));
        self::assertLessThanOrEqual(2 * \count($clients), \count($byConnection), 'each identity still keeps its connection warm');
    }

    public function testAProxiedAndADirectClientNeverShareAConnection(): void
    {
        $proxy = LoopbackProxy::start('http');
        $direct = self::client();
        $proxied = self::client(['proxy' => $proxy->url()]);

        for ($i = 0; $i < 3; ++$i) {
            self::whoami($direct, 'direct', 'seq' . $i);
            self::whoami($proxied, 'proxied', 'seq' . $i);
        }

        $byConnection = self::clientsByConnection(6);
        foreach ($byConnection as $names) {
            self::assertCount(1, $names);
        }
        self::assertCount(1, $proxy->seen(), 'the proxied client\'s three requests went through its one tunnel');
    }

    /**
     * libcurl 7.88 matches a cached connection's HTTP proxy by type, host and port, not by its
     * credentials: a tunnel opened with one user's would carry another's requests.
     */
    public function testTunnelsOpenedWithDifferentProxyCredentialsAreNeverShared(): void
    {
        $proxy = LoopbackProxy::start('http');
        $first = self::client(['proxy' => $proxy->url('first:one')]);
        $second = self::client(['proxy' => $proxy->url('second:two')]);

        for ($i = 0; $i < 3; ++$i) {
            self::whoami($first, 'first', 'seq' . $i);
            self::whoami($second, 'second', 'seq' . $i);
        }

        $byTunnel = [];
        foreach ($proxy->seen() as $entry) {
            $byTunnel[$entry['connection']] = $entry['auth'];
        }
        $byConnection = self::clientsByConnection(6);
        foreach ($byConnection as $names) {
            self::assertCount(1, $names);
        }
        $tunnels = array_count_values($byTunnel);
        self::assertSame(1, $tunnels['Basic ' . base64_encode('first:one')] ?? 0, 'the first user of the proxy keeps its tunnel warm');
        self::assertSame(3, $tunnels['Basic ' . base64_encode('second:two')] ?? 0, 'another user gets a tunnel of its own per request');
    }

    /** At once, over HTTP/2: the owner's streams never multiplex onto another user's tunnel. */
    public function testConcurrentUsersOfOneProxyStayApart(): void
    {
        $proxy = LoopbackProxy::start('http');
        $clients = ['owner' => self::client(['proxy' => $proxy->url('owner:one')]), 'other' => self::client(['proxy' => $proxy->url('other:two')])];
        self::whoami($clients['owner'], 'owner', 'warm');
        $pending = [];
        for ($i = 0; $i < 6; ++$i) {
            foreach ($clients as $name => $client) {
                $pending[] = $client->sendAsync($client->createRequest('GET', self::nginxUrl('mtls_optional', "/whoami?c={$name}&i=par{$i}&t=" . self::testId())));
            }
        }
        foreach ($pending as $response) {
            self::assertSame(200, $response->wait()->getStatusCode());
        }

        foreach (self::clientsByConnection(13) as $connection => $names) {
            self::assertCount(1, $names, \sprintf('connection %d carried %s', $connection, implode(', ', array_keys($names))));
        }
        $tunnels = array_count_values(array_column($proxy->seen(), 'auth'));
        self::assertSame(6, $tunnels['Basic ' . base64_encode('other:two')] ?? 0);
    }

    /**
     * libcurl 7.88 compares a certificate's file, not its key or passphrase: without the
     * pool's partition a client with the wrong passphrase rode the right one's connection.
     */
    public function testAWrongPassphraseNeverRidesTheRightOnesConnection(): void
    {
        [$cert, $key] = self::rig()->certificate()->client('dave', 'right');
        $right = self::client(['cert' => $cert, 'ssl_key' => [$key, 'right']]);
        $wrong = self::client(['cert' => $cert, 'ssl_key' => [$key, 'wrong']]);

        self::assertSame('SUCCESS CN=dave', self::whoami($right, 'right', 'first'));
        try {
            self::whoami($wrong, 'wrong', 'second');
            self::fail('the wrong passphrase must fail, warm connection or not');
        } catch (NetworkException $e) {
            self::assertSame(\CURLE_SSL_CERTPROBLEM, $e->getCode());
        }
        self::assertSame('SUCCESS CN=dave', self::whoami($right, 'right', 'third'));

        self::assertCount(1, self::clientsByConnection(2), 'the right one kept its connection warm');
    }

    private static function whoami(Client $client, string $name, string $tag): string
    {
        $response = $client->sendRequest($client->createRequest('GET', self::nginxUrl('mtls_optional', "/whoami?c={$name}&i={$tag}&t=" . self::testId())));
        self::assertInstanceOf(ResponseInterface::class, $response);

        return (string) $response->getBody();
    }

    /** Tags this test's requests: a connection may rightly carry an earlier test's requests of the same identity. */
    private static function testId(): string
    {
        return self::$testId;
    }

    /**
     * nginx's connection numbers, each with the tagged clients whose requests it carried.
     *
     * @return array<int, array<string, true>>
     */
    private static function clientsByConnection(int $atLeast): array
    {
        $nginx = self::rig()->nginx();
        $nginx->awaitRequests($atLeast, '/whoami');
        $byConnection = [];
        foreach ($nginx->accessLog() as $entry) {
            if (preg_match('/^\/whoami\?c=([a-z]+)&i=[a-z0-9]+&t=' . self::testId() . '$/', $entry['uri'], $match) === 1) {
                $byConnection[$entry['connection']][$match[1]] = true;
            }
        }

        return $byConnection;
    }
}
