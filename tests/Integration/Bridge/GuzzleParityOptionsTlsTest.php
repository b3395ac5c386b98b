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
