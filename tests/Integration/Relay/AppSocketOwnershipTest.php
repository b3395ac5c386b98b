<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use WarmHttp\Client;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Relay\App\DeferredSends;
use WarmHttp\Rig\TempDir;

/**
 * The app checks the relay's unix socket before it writes a byte to it: a socket another user
 * placed in a shared directory (a squatter answering 202 while the relay is down) is refused,
 * and dispatch() falls back instead. Real sockets, real owners (chown: runs as root).
 */
final class AppSocketOwnershipTest extends TestCase
{
    private const NOBODY = 65534;

    private TempDir $dir;

    protected function setUp(): void
    {
        if (!\function_exists('posix_geteuid') || posix_geteuid() !== 0) {
            self::markTestSkipped('Needs root, to give a socket to another user.');
        }
        $this->dir = TempDir::create('app-socket');
    }

    protected function tearDown(): void
    {
        $this->dir->remove();
    }

    public function testASocketOfAnotherUserInAStickySharedDirectoryIsRefusedAndDispatchFallsBack(): void
    {
        $shared = $this->sharedDirectory(01777);
        [$server, $path] = self::listen($shared, self::NOBODY);
        $origin = FlakyOrigin::start(200);
        $logger = new MemoryLogger();
        $client = $this->client($path, $logger);

        $client->dispatch($client->createRequest('POST', $origin->url('/squatted'))->withBody($client->createStream('secret')));

        $reason = (string) ($logger->contexts('Relay hand-off failed')[0]['reason'] ?? ''); // @phpstan-ignore cast.string
        self::assertStringContainsString('belongs to uid 65534', $reason);
        self::assertStringContainsString('another user may have taken the path', $reason);
        self::assertSame('', self::received($server), 'not one byte went to the squatter');
        DeferredSends::flush();
        self::assertCount(1, $origin->requests(), 'the fallback sent it directly, not through the squatter');
        self::assertSame('', self::received($server));

        $this->expectException(NetworkException::class);
        $this->expectExceptionMessage('belongs to uid 65534');
        (new Client(['relay' => 'unix://' . $path, 'relay_sync' => true]))->sendRequest($client->createRequest('GET', $origin->url('/sync')));
    }

    public function testAWorldWritableDirectoryWithoutStickyBitIsRefusedEvenForOurOwnSocket(): void
    {
        [$server, $path] = self::listen($this->sharedDirectory(0777), 0);
        $logger = new MemoryLogger();
        $client = $this->client($path, $logger);

        $client->dispatch($client->createRequest('POST', 'http://127.0.0.1:9/never'));

        self::assertStringContainsString('no sticky bit', (string) ($logger->contexts('Relay hand-off failed')[0]['reason'] ?? '')); // @phpstan-ignore cast.string
        self::assertSame('', self::received($server));
    }

    public function testARelayOfItsOwnUserInADirectoryOnlyItsOwnerMayWriteIsTrusted(): void
    {
        $relay = RelayProcess::start(['--allow-private-networks']);
        chown($relay->socketPath(), self::NOBODY); // the relay running as its own user, in the operator's directory
        $origin = FlakyOrigin::start(200);
        $logger = new MemoryLogger();
        $client = $this->client($relay->socketPath(), $logger);

        $client->dispatch($client->createRequest('POST', $origin->url('/own-dir')));

        self::assertSame([], $logger->contexts('Relay hand-off failed'), 'the relay took it');
        self::assertTrue($origin->await(static fn(array $rows): bool => \count($rows) === 1));
        $relay->remove();
    }

    private function client(string $socket, MemoryLogger $logger): Client
    {
        return new Client(['relay' => 'unix://' . $socket, 'relay_allow_private_networks' => true, 'relay_fallback_dir' => $this->dir->path('journal'), 'logger' => $logger]);
    }

    private function sharedDirectory(int $mode): string
    {
        $shared = $this->dir->path('shared');
        mkdir($shared);
        chmod($shared, $mode);

        return $shared;
    }

    /** @return array{resource, string} a listening socket owned by $uid, and its path */
    private static function listen(string $dir, int $uid): array
    {
        $path = $dir . '/relay.sock';
        $server = stream_socket_server('unix://' . $path);
        self::assertNotFalse($server);
        chown($path, $uid);

        return [$server, $path];
    }

    /** @param resource $server what clients wrote to it, over any connection they made */
    private static function received($server): string
    {
        $bytes = '';
        while (($peer = @stream_socket_accept($server, 0.1)) !== false) {
            stream_set_timeout($peer, 0, 200_000);
            $bytes .= (string) stream_get_contents($peer);
            fclose($peer);
        }

        return $bytes;
    }
}
