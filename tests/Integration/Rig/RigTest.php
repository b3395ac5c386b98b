<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Rig;

use PHPUnit\Framework\TestCase;
use WarmHttp\Rig\Rig;

final class RigTest extends TestCase
{
    public function testSharedRigIsStartedOnceAndProxiesReachEachListener(): void
    {
        $rig = Rig::shared();
        self::assertSame($rig, Rig::shared());
        self::assertSame($rig->nginx(), Rig::shared()->nginx());
        self::assertFileExists($rig->caFile());

        foreach (['h2' => \CURL_HTTP_VERSION_2_0, 'h1tls' => \CURL_HTTP_VERSION_1_1, 'plain' => \CURL_HTTP_VERSION_1_1] as $listener => $version) {
            $proxy = $rig->proxyTo($listener, 0); // a proxy stops when dropped: keep it in a variable
            $response = CurlGet::fetch($proxy->url('/fast'));
            self::assertSame('ok', $response['body'], $listener . ': ' . $response['error']);
            self::assertSame($version, $response['version']);
        }
    }

    public function testDroppedProxyIsStopped(): void
    {
        $proxy = Rig::shared()->proxyTo('plain', 0);
        $port = $proxy->port();
        unset($proxy);

        self::assertFalse(@stream_socket_client('tcp://127.0.0.1:' . $port, $errno, $errstr, 1));
    }

    public function testUnknownListenerIsRefused(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage('Unknown listener "h3"');

        Rig::shared()->proxyTo('h3', 0);
    }
}
