<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use WarmHttp\Rig\Rig;

/**
 * The relay's sync transfers keep their easy handles' options between requests of one shape
 * (TransferSpec::$profile, CurlPool::launch): each request still sends its own header lines,
 * each caller's settings stay its own, and each streamed answer gets its own callbacks.
 */
final class RelaySyncKeptHandlesTest extends RelaySyncTestCase
{
    public function testEachRequestSendsOnlyItsOwnHeaderLines(): void
    {
        $client = self::client(['cafile' => Rig::shared()->caFile()]);
        $url = Rig::shared()->nginx()->url('h2', '/headers');
        foreach (['de', null, 'fr', null, 'it'] as $i => $language) {
            $request = $client->createRequest('GET', $url);
            if ($language !== null) {
                $request = $request->withHeader('Accept-Language', $language);
            }
            $body = strtolower((string) $client->sendRequest($request)->getBody());

            // /headers echoes a fixed list of names, each with its value or none.
            self::assertStringContainsString("\r\naccept-language: " . ($language ?? '') . "\r\n", $body, "request {$i}");
        }
    }

    public function testRepeatedHeadsTakingTurnsEachSendTheirOwnLines(): void
    {
        // From its third time on, a head is forwarded with the spec kept for it (SyncForwarder).
        $client = self::client(['cafile' => Rig::shared()->caFile()]);
        $urls = [Rig::shared()->nginx()->url('h2', '/headers'), Rig::shared()->nginx()->url('h2', '/headers?again')];
        for ($i = 0; $i < 8; ++$i) {
            $language = $i % 2 === 0 ? 'de' : 'fr';
            $request = $client->createRequest('GET', $urls[intdiv($i, 2) % 2])->withHeader('Accept-Language', $language);
            $body = strtolower((string) $client->sendRequest($request)->getBody());

            self::assertStringContainsString("\r\naccept-language: {$language}\r\n", $body, "request {$i}");
        }
    }

    public function testCallersWithOtherSettingsTakingTurnsKeepTheirOwn(): void
    {
        $url = Rig::shared()->nginx()->url('h2', '/fast');
        $http11 = self::client(['cafile' => Rig::shared()->caFile(), 'http_version' => '1.1']);
        $default = self::client(['cafile' => Rig::shared()->caFile()]);
        for ($i = 0; $i < 3; ++$i) {
            self::assertSame('1.1', $http11->sendRequest($http11->createRequest('GET', $url))->getProtocolVersion());
            self::assertSame('2', $default->sendRequest($default->createRequest('GET', $url))->getProtocolVersion());
        }
    }

    public function testStreamedAnswersTakingTurnsEachGetTheirOwnBody(): void
    {
        $client = self::client(['cafile' => Rig::shared()->caFile()]);
        foreach (['/drip' => 'first,second', '/fast' => 'ok', '/echo/x' => '/echo/x'] as $path => $body) {
            for ($i = 0; $i < 2; ++$i) {
                self::assertSame($body, (string) $client->sendRequest($client->createRequest('GET', Rig::shared()->nginx()->url('h2', $path)))->getBody(), $path);
            }
        }
    }
}
