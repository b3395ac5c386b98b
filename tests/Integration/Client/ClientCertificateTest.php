<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Client;

use WarmHttp\Exception\InvalidOptionException;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Tests\Integration\RigTestCase;

/** cert and ssl_key (mTLS) against nginx with ssl_verify_client on. */
final class ClientCertificateTest extends RigTestCase
{
    public function testACertificateAndKeyAreVerifiedByTheServer(): void
    {
        [$cert, $key] = self::rig()->certificate()->client('alice');

        $response = self::client(['cert' => $cert, 'ssl_key' => $key])->sendRequest(self::client()->createRequest('GET', self::nginxUrl('mtls', '/whoami')));

        self::assertSame(200, $response->getStatusCode());
        self::assertSame('SUCCESS CN=alice', (string) $response->getBody());
    }

    public function testWithoutACertificateTheServerRefuses(): void
    {
        $response = self::client()->sendRequest(self::client()->createRequest('GET', self::nginxUrl('mtls', '/whoami')));

        self::assertSame(400, $response->getStatusCode());
        self::assertStringContainsString('No required SSL certificate was sent', (string) $response->getBody());
    }

    public function testAnEncryptedKeyWithItsPassphraseEitherWayGuzzleSpellsIt(): void
    {
        [$cert, $key] = self::rig()->certificate()->client('carol', 'open sesame');
        $combined = $key . '.combined.pem';
        file_put_contents($combined, file_get_contents($cert) . file_get_contents($key));

        $withKey = self::client(['cert' => $cert, 'ssl_key' => [$key, 'open sesame']]);
        $inOneFile = self::client(['cert' => [$combined, 'open sesame']]);

        foreach ([$withKey, $inOneFile] as $client) {
            self::assertSame('SUCCESS CN=carol', (string) $client->sendRequest($client->createRequest('GET', self::nginxUrl('mtls', '/whoami')))->getBody());
        }
    }

    public function testAWrongPassphraseIsANetworkExceptionThatSaysSo(): void
    {
        [$cert, $key] = self::rig()->certificate()->client('carol', 'open sesame');
        $client = self::client(['cert' => $cert, 'ssl_key' => [$key, 'wrong']]);

        try {
            $client->sendRequest($client->createRequest('GET', self::nginxUrl('mtls', '/whoami')));
            self::fail('a key that cannot be decrypted must not pass');
        } catch (NetworkException $e) {
            self::assertSame(\CURLE_SSL_CERTPROBLEM, $e->getCode(), $e->getMessage());
            self::assertStringContainsString('private key', $e->getMessage());
        }
    }

    public function testAMissingFileIsRefusedOnConstructionNamingTheOption(): void
    {
        $this->expectException(InvalidOptionException::class);
        $this->expectExceptionMessage('Option "ssl_key": the file "/nonexistent/alice.key" does not exist or is not readable.');

        self::client(['cert' => self::rig()->certificate()->client('alice')[0], 'ssl_key' => '/nonexistent/alice.key']);
    }
}
