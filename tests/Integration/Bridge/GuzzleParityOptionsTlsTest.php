<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bridge;

use GuzzleHttp\Client as GuzzleClient;
use GuzzleHttp\HandlerStack;
use WarmHttp\Bridge\Guzzle\Handler;
use WarmHttp\Rig\Rig;
use WarmHttp\Tests\Integration\Bridge\Parity\ParityResult;
use WarmHttp\Tests\Integration\Bridge\Parity\ParityTestCase;

/**
 * `cert` and `ssl_key` (Guzzle's spellings, and the `curl` option's) against the rig's nginx
 * with ssl_verify_client on, through Guzzle's default handler and WarmHttp's; and proof that
 * requests with different certificates through one handler never share a connection.
 */
final class GuzzleParityOptionsTlsTest extends ParityTestCase
{
    /**
     * The handler negotiates HTTP/2 over TLS by ALPN where Guzzle asks for HTTP/1.1 (a documented
     * difference of the handler, not of these options): the version and h2's lower-case header
     * names differ; status, reason and body are compared.
     */
    private const HTTP2 = ['seen.class', 'seen.version', 'seen.headers'];

    public function testACertificateAndKey(): void
    {
        [$cert, $key] = Rig::shared()->certificate()->client('alice');

        self::assertParity(self::whoami(['cert' => $cert, 'ssl_key' => $key]), self::HTTP2);
    }

    public function testAnEncryptedKeyWithItsPassphraseEitherWayGuzzleSpellsIt(): void
    {
        [$cert, $key] = Rig::shared()->certificate()->client('carol', 'open sesame');
        $combined = $key . '.combined.pem';
        file_put_contents($combined, file_get_contents($cert) . file_get_contents($key));

        self::assertParity(self::whoami(['cert' => $cert, 'ssl_key' => [$key, 'open sesame']]), self::HTTP2);
        self::assertParity(self::whoami(['cert' => [$combined, 'open sesame']]), self::HTTP2);
        self::assertParity(self::whoami(['curl' => [\CURLOPT_SSLCERT => $cert, \CURLOPT_SSLKEY => $key, \CURLOPT_SSLKEYPASSWD => 'open sesame']]), self::HTTP2);
    }

    public function testWithoutACertificateTheServerRefusesOnBothSides(): void
    {
        self::assertParity(self::whoami([]), self::HTTP2);
    }

    public function testAWrongPassphraseFailsAlike(): void
    {
        [$cert, $key] = Rig::shared()->certificate()->client('carol', 'open sesame');
        $result = self::whoami(['cert' => $cert, 'ssl_key' => [$key, 'wrong']]);

        self::assertParity($result);
        self::assertStringStartsWith('cURL error 58: ', self::text($result->warm->seen->facts['message'] ?? null));
    }

    public function testCertificatesThroughOneHandlerNeverShareAConnection(): void
    {
        $alice = Rig::shared()->certificate()->client('alice');
        $carol = Rig::shared()->certificate()->client('carol', 'open sesame');
        $identities = [
            'CN=alice' => ['cert' => $alice[0], 'ssl_key' => $alice[1]],
            'CN=carol' => ['cert' => $carol[0], 'ssl_key' => [$carol[1], 'open sesame']],
            'none' => [],
        ];
        $client = new GuzzleClient(['handler' => HandlerStack::create(new Handler()), 'verify' => Rig::shared()->caFile(), 'http_errors' => false]);
        $url = Rig::shared()->nginx()->url('mtls', '/whoami');

        for ($round = 0; $round < 3; ++$round) {
            $promises = [];
            foreach ($identities as $name => $options) {
                $promises[$name] = $client->getAsync($url, $options);
            }
            foreach ($promises as $name => $promise) {
                $response = $promise->wait();
                self::assertInstanceOf(\Psr\Http\Message\ResponseInterface::class, $response);
                $body = (string) $response->getBody();
                self::assertSame($name === 'none', str_contains($body, 'No required SSL certificate'), "round {$round}, {$name}: {$body}");
                if ($name !== 'none') {
                    self::assertSame('SUCCESS ' . $name, $body, "round {$round}");
                }
            }
        }
    }

    public function testVerifyAgainstAnUnknownCaFailsAlikeAndFalseOrTheBundlePasses(): void
    {
        $url = Rig::shared()->nginx()->url('h1tls', '/fast');
        $result = self::parity()->scenario(static function (GuzzleClient $client) use ($url): array {
            $facts = [];
            foreach (['system bundle' => true, 'false' => false, 'the rig\'s CA' => Rig::shared()->caFile()] as $name => $verify) {
                try {
                    $facts[$name] = $client->get($url, ['verify' => $verify])->getStatusCode();
                } catch (\GuzzleHttp\Exception\RequestException $e) {
                    $facts[$name] = [$e::class, $e->getMessage(), $e->getHandlerContext()['errno'] ?? null];
                }
            }

            return $facts;
        });

        self::assertParity($result);
        self::assertSame(200, $result->warm->seen->facts['false'] ?? null);
        self::assertStringStartsWith('cURL error 60: ', self::text(((array) ($result->warm->seen->facts['system bundle'] ?? []))[1] ?? null));
    }

    /** The rig's nginx speaks TLS 1.3 only: a 1.3 floor passes, a 1.2 ceiling fails alike. */
    public function testATlsFloorAndCeiling(): void
    {
        $url = Rig::shared()->nginx()->url('h1tls', '/fast');
        $result = self::parity()->scenario(static function (GuzzleClient $client) use ($url): array {
            $facts = ['floor 1.3' => $client->get($url, ['crypto_method' => \STREAM_CRYPTO_METHOD_TLSv1_3_CLIENT])->getStatusCode()];
            try {
                $client->get($url, ['crypto_method_max' => \STREAM_CRYPTO_METHOD_TLSv1_2_CLIENT]);
                $facts['ceiling 1.2'] = 'connected';
            } catch (\GuzzleHttp\Exception\ConnectException $e) {
                $facts['ceiling 1.2'] = [$e::class, $e->getHandlerContext()['errno'] ?? null, preg_replace('/:[^:]*$/', '', $e->getMessage())];
            }

            return $facts;
        }, [], ['verify' => Rig::shared()->caFile()]);

        self::assertSame(200, $result->warm->seen->facts['floor 1.3'] ?? null);
        self::assertParity($result);
    }

    /** `verify` naming a directory of hashed CA certificates: CURLOPT_CAPATH. */
    public function testACaDirectory(): void
    {
        $dir = sys_get_temp_dir() . '/warmhttp-capath-' . getmypid();
        @mkdir($dir);
        copy(Rig::shared()->caFile(), $dir . '/rig-ca.pem');
        exec('openssl rehash ' . escapeshellarg($dir) . ' 2>&1', $output, $status);
        self::assertSame(0, $status, implode("\n", $output));
        $url = Rig::shared()->nginx()->url('h1tls', '/fast');
        try {
            $result = self::parity()->scenario(static fn(GuzzleClient $client): array => [
                'status' => $client->get($url, ['verify' => $dir])->getStatusCode(),
            ]);
        } finally {
            array_map(unlink(...), glob($dir . '/*') ?: []);
            rmdir($dir);
        }

        self::assertSame(['status' => 200], $result->warm->seen->facts);
        self::assertParity($result);
    }

    /** A DER certificate (its type from the extension, as Guzzle takes it) and a PKCS#12 bundle holding the key. */
    public function testDerAndP12Certificates(): void
    {
        [$cert, $key] = Rig::shared()->certificate()->client('dave');
        $der = $cert . '.der';
        $p12 = $cert . '.p12';
        self::openssl(['x509', '-in', $cert, '-outform', 'DER', '-out', $der]);
        self::openssl(['pkcs12', '-export', '-in', $cert, '-inkey', $key, '-passout', 'pass:pw', '-out', $p12]);

        self::assertParity($result = self::whoami(['cert' => $der, 'ssl_key' => $key]), self::HTTP2);
        self::assertSame('SUCCESS CN=dave', $result->warm->seen->facts['body'] ?? null);
        self::assertParity(self::whoami(['cert' => [$p12, 'pw'], 'cert_type' => 'p12']), self::HTTP2);
        self::assertParity(self::whoami(['cert' => [$p12, 'wrong']]), [], 'a wrong passphrase fails alike');
    }

    /** @param list<string> $arguments */
    private static function openssl(array $arguments): void
    {
        exec('openssl ' . implode(' ', array_map(escapeshellarg(...), $arguments)) . ' 2>&1', $output, $status);
        self::assertSame(0, $status, implode("\n", $output));
    }

    /** @param array<string, mixed> $options */
    private static function whoami(array $options): ParityResult
    {
        $url = Rig::shared()->nginx()->url('mtls', '/whoami');

        return self::parity()->scenario(
            static fn(GuzzleClient $client) => $client->get($url, $options + ['http_errors' => false]),
            [],
            ['verify' => Rig::shared()->caFile()],
        );
    }

    private static function text(mixed $value): string
    {
        return \is_string($value) ? $value : '';
    }
}
