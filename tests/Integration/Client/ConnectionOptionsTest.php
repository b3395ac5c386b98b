<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Client;

use Nyholm\Psr7\Request;
use WarmHttp\Client;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Tests\Integration\Bridge\Parity\Answer;
use WarmHttp\Tests\Integration\Bridge\Parity\EchoOrigin;
use WarmHttp\Tests\Integration\RigTestCase;

/**
 * The Client options of issue 14 on the real rig: TLS version range, CA directory, DER and
 * PKCS#12 certificates, address family, NTLM's HTTP/1.1, `debug` and `progress` (each
 * Client's own, also when the pool reuses handles), and "2-upgrade".
 */
final class ConnectionOptionsTest extends RigTestCase
{
    public function testATlsFloorAndCeilingAgainstATls13OnlyServer(): void
    {
        $url = self::nginxUrl('h2');

        self::assertSame(200, self::client(['tls_min' => '1.3'])->sendRequest(new Request('GET', $url))->getStatusCode());
        self::assertSame(200, self::client(['tls_max' => '1.3'])->sendRequest(new Request('GET', $url))->getStatusCode());
        $this->expectException(NetworkException::class);
        $this->expectExceptionMessageMatches('/the TLS handshake failed \(curl error 35: .*protocol version/');
        self::client(['tls_max' => '1.2'])->sendRequest(new Request('GET', $url));
    }

    public function testACaDirectory(): void
    {
        $dir = sys_get_temp_dir() . '/warmhttp-capath-client-' . getmypid();
        @mkdir($dir);
        copy(self::rig()->caFile(), $dir . '/rig-ca.pem');
        exec('openssl rehash ' . escapeshellarg($dir) . ' 2>&1', $output, $status);
        try {
            self::assertSame(0, $status, implode("\n", $output));
            self::assertSame(200, (new Client(['capath' => $dir]))->sendRequest(new Request('GET', self::nginxUrl('h2')))->getStatusCode());
            $empty = $dir . '/empty';
            @mkdir($empty);
            $this->expectExceptionMessageMatches('/curl error 60: /');
            (new Client(['capath' => $empty]))->sendRequest(new Request('GET', self::nginxUrl('h1tls')));
        } finally {
            @rmdir($dir . '/empty');
            array_map(unlink(...), glob($dir . '/*') ?: []);
            rmdir($dir);
        }
    }

    public function testDerAndP12ClientCertificates(): void
    {
        [$cert, $key] = self::rig()->certificate()->client('erin');
        exec(\sprintf('openssl x509 -in %1$s -outform DER -out %1$s.der && openssl pkcs12 -export -in %1$s -inkey %2$s -passout pass:pw -out %1$s.p12 2>&1', escapeshellarg($cert), escapeshellarg($key)), $output, $status);
        self::assertSame(0, $status, implode("\n", $output));
        $url = self::nginxUrl('mtls', '/whoami');

        self::assertSame('SUCCESS CN=erin', (string) self::client(['cert' => $cert . '.der', 'cert_type' => 'DER', 'ssl_key' => $key])->sendRequest(new Request('GET', $url))->getBody());
        self::assertSame('SUCCESS CN=erin', (string) self::client(['cert' => [$cert . '.p12', 'pw'], 'cert_type' => 'P12'])->sendRequest(new Request('GET', $url))->getBody());
        $this->expectException(NetworkException::class);
        $this->expectExceptionMessageMatches('/curl error 58: could not parse PKCS12 file/');
        self::client(['cert' => [$cert . '.p12', 'wrong'], 'cert_type' => 'P12'])->sendRequest(new Request('GET', $url));
    }

    public function testNtlmSpeaksHttp11WhereOthersNegotiateHttp2(): void
    {
        $url = self::nginxUrl('h2');

        self::assertSame('2', self::client()->sendRequest(new Request('GET', $url))->getProtocolVersion());
        self::assertSame('1.1', self::client(['http_auth' => ['ntlm', 'u', 'p']])->sendRequest(new Request('GET', $url))->getProtocolVersion());
        self::assertSame('2', self::client(['http_auth' => ['digest', 'u', 'p']])->sendRequest(new Request('GET', $url))->getProtocolVersion());
    }

    /** The origin listens on 127.0.0.1 only. */
    public function testTheAddressFamily(): void
    {
        $origin = EchoOrigin::start();
        $url = 'http://localhost:' . $origin->port() . '/family';

        self::assertSame(200, (new Client(['ip_resolve' => 'v4']))->sendRequest(new Request('GET', $url))->getStatusCode());
        $this->expectException(NetworkException::class);
        (new Client(['ip_resolve' => 'v6', 'connect_timeout' => 5]))->sendRequest(new Request('GET', $url));
    }

    /** Two Clients with the same options but their own log: each log holds its Client's requests only, round after round. */
    public function testEachDebugStreamGetsItsOwnClientsTransfersOnly(): void
    {
        $logs = ['a' => fopen('php://temp', 'w+'), 'b' => fopen('php://temp', 'w+')];
        $clients = array_map(static fn($log): Client => self::client(['debug' => $log]), $logs);
        $plain = self::client();
        for ($round = 0; $round < 3; ++$round) {
            foreach ($clients as $name => $client) {
                // createRequest(): the path on which a Client's handles may keep their options
                $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', "/fast?{$name}{$round}")));
            }
            $plain->sendRequest($plain->createRequest('GET', self::nginxUrl('h2', "/fast?plain{$round}")));
        }

        foreach ($logs as $name => $log) {
            self::assertIsResource($log);
            rewind($log);
            preg_match_all('/^> GET \/fast\?(\w+) /m', (string) stream_get_contents($log), $requests);
            self::assertSame(["{$name}0", "{$name}1", "{$name}2"], $requests[1]);
        }
    }

    public function testProgressAndAThrowingProgressLeaveThePoolWorking(): void
    {
        $calls = [];
        $client = self::client(['progress' => static function (int $downloadTotal, int $downloaded) use (&$calls): void {
            $calls[] = [$downloadTotal, $downloaded];
        }]);
        $body = (string) $client->sendRequest(new Request('GET', self::nginxUrl('h2', '/bytes/200000')))->getBody();
        self::assertSame([\strlen($body), \strlen($body)], $calls[\count($calls) - 1]);

        $throwing = self::client(['progress' => static function (): void {
            throw new \RuntimeException('stop');
        }]);
        $other = self::client()->sendAsync(new Request('GET', self::nginxUrl('h2', '/fast?beside')));
        try {
            $throwing->sendRequest(new Request('GET', self::nginxUrl('h2', '/bytes/200000')));
            self::fail('the transfer is stopped');
        } catch (NetworkException $e) {
            // The pool cannot name the callback's exception yet (CurlPool::classify knows only
            // the read timeout's abort): curl's own error 42 is what the caller sees.
            self::assertStringContainsString('(curl error 42: Callback aborted)', $e->getMessage());
        }
        self::assertSame(200, $other->wait()->getStatusCode(), 'the transfer beside it goes on');
    }

    /** Guzzle's `version => 2.0` on http://: HTTP/1.1 offering h2c, answered in 1.1 by a server that ignores it. */
    public function testTwoUpgradeOffersH2cAndStaysOnHttp11(): void
    {
        $origin = EchoOrigin::start();
        $origin->script(['/up' => Answer::status(200, [], 'one-one')]);

        $response = (new Client(['http_version' => '2-upgrade']))->sendRequest(new Request('GET', $origin->url('/up')));

        self::assertSame(['one-one', '1.1'], [(string) $response->getBody(), $response->getProtocolVersion()]);
        self::assertSame('h2c', $origin->received()[0]->header('Upgrade'));
    }
}
